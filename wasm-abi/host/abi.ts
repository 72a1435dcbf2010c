/**
 * The numbers and names of WASM ABI v1, shared by the main thread and the
 * plugin's Worker. `wasm-abi/README.md` explains each one; the C header and
 * the AssemblyScript library repeat the same values.
 *
 * @module
 */

/** The ABI version this host speaks (`plugin_get_abi_version` must return it). */
export const ABI_VERSION = 1;

/** WebAssembly page size in bytes. */
export const PAGE_SIZE = 65536;

/** First address that belongs to the plugin; everything below is the host's. */
export const CORTEX_HEAP_BASE = 0x100000;

/** Pages the host region needs: the memory must be at least this large. */
export const HOST_REGION_PAGES = CORTEX_HEAP_BASE / PAGE_SIZE;

/** Start of the host scratch area (length slots the host passes to the plugin). */
export const SCRATCH_START = 0x0;

/**
 * The 8-aligned slot where the host puts the output capacity for
 * `plugin_get_capabilities` and `plugin_execute_tool`. It sits in the scratch
 * area, so it never overlaps an output buffer (which comes from the host heap).
 * Address 0..7 stays unused so that a null pointer is never a valid slot.
 */
export const OUT_LEN_SLOT = 0x10;

/** Start of the host-managed heap (`host_alloc` and the host's per-call buffers). */
export const HOST_HEAP_START = 0x20000;

/** End (exclusive) of the host-managed heap. */
export const HOST_HEAP_END = CORTEX_HEAP_BASE;

/** Alignment of every `host_alloc` block and every host buffer. */
export const HOST_ALIGN = 8;

/** Success. */
export const CORTEX_OK = 0;
/** Not found, or the operation failed (for HTTP: the body holds a short reason). */
export const CORTEX_ERR: number = -1;
/** The output did not fit: the needed length is stored in the length slot. */
export const CORTEX_ERR_BUFFER_TOO_SMALL: number = -2;
/** Refused by policy (network not granted, or address not allowed). */
export const CORTEX_ERR_DENIED: number = -3;

/** A WebAssembly value type as written in a signature. */
export type ValType = "i32" | "i64" | "f32" | "f64" | "v128" | "ref";

/** A function signature. */
export interface Signature {
  /** Parameter types in order. */
  params: ValType[];
  /** Result types in order. */
  results: ValType[];
}

const i32s = (n: number): ValType[] => Array.from({ length: n }, () => "i32");

/** Every function the host offers under the `env` module, with its signature. */
export const HOST_IMPORTS: Readonly<Record<string, Signature>> = {
  host_alloc: { params: i32s(1), results: i32s(1) },
  host_free: { params: i32s(1), results: [] },
  host_log: { params: i32s(2), results: [] },
  host_get_config: { params: i32s(4), results: i32s(1) },
  host_set_state: { params: i32s(4), results: [] },
  host_get_state: { params: i32s(4), results: i32s(1) },
  host_http_request: { params: i32s(11), results: i32s(1) },
  host_get_abi_version: { params: [], results: i32s(1) },
  host_get_time_ms: { params: [], results: ["i64"] },
  host_random: { params: i32s(2), results: [] },
};

/** The import module name for every host function and the imported memory. */
export const IMPORT_MODULE = "env";

/** The exports a plugin must have, with their signatures. */
export const REQUIRED_EXPORTS: Readonly<Record<string, Signature>> = {
  plugin_get_abi_version: { params: [], results: i32s(1) },
  plugin_get_capabilities: { params: i32s(2), results: i32s(1) },
  plugin_execute_tool: { params: i32s(6), results: i32s(1) },
};

/** Optional exports; only their parameters are checked (results are ignored). */
export const OPTIONAL_EXPORTS: Readonly<Record<string, Signature>> = {
  plugin_init: { params: [], results: [] },
  plugin_destroy: { params: [], results: [] },
};
