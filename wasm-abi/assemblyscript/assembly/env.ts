/**
 * The host imports of Cortex WASM ABI v1. AssemblyScript imports a declared
 * function from the module named after its file, so this file must stay
 * named `env.ts`. Pointers are `usize`, lengths `u32`; see wasm-abi/README.md.
 *
 * @module
 */

/** An 8-aligned block in the host heap, or 0. */
export declare function host_alloc(size: u32): usize;
/** Frees a host_alloc block. */
export declare function host_free(ptr: usize): void;
/** Logs UTF-8 text. */
export declare function host_log(ptr: usize, len: u32): void;
/** Reads a config value; capacity in and length out through `outLenPtr`. */
export declare function host_get_config(
  keyPtr: usize,
  keyLen: u32,
  outPtr: usize,
  outLenPtr: usize,
): i32;
/** Persists a state value. */
export declare function host_set_state(
  keyPtr: usize,
  keyLen: u32,
  valuePtr: usize,
  valueLen: u32,
): void;
/** Reads a state value; capacity in and length out through `outLenPtr`. */
export declare function host_get_state(
  keyPtr: usize,
  keyLen: u32,
  outPtr: usize,
  outLenPtr: usize,
): i32;
/** A blocking HTTP request. */
export declare function host_http_request(
  methodPtr: usize,
  methodLen: u32,
  urlPtr: usize,
  urlLen: u32,
  bodyPtr: usize,
  bodyLen: u32,
  headersPtr: usize,
  headersLen: u32,
  outStatusPtr: usize,
  outBodyPtr: usize,
  outBodyLenPtr: usize,
): i32;
/** The host's ABI version. */
export declare function host_get_abi_version(): i32;
/** Milliseconds since the Unix epoch. */
export declare function host_get_time_ms(): i64;
/** Fills `len` bytes with secure random data. */
export declare function host_random(outPtr: usize, len: u32): void;
