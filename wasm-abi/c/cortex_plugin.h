/*
 * Cortex WASM plugin ABI v1: the C side.
 *
 * Compatible with the CortexPrism reference header (src/plugins/sdk/wasm-plugin.h):
 * same import names and signatures under "env", same exports, same layout,
 * same conventions. What this header adds: explicit import/export attributes
 * (no linker flags needed for them), named return codes, and small helpers.
 * The full reference is wasm-abi/README.md.
 *
 * Build a plugin (clang >= 14, no libc needed):
 *
 *   clang --target=wasm32 -O2 -nostdlib -ffreestanding -mbulk-memory \
 *     -I wasm-abi/c -Wl,--no-entry -Wl,--global-base=1048576 \
 *     -Wl,--export=memory -o plugin.wasm plugin.c
 *
 * --global-base=1048576 puts your data, stack and heap at CORTEX_HEAP_BASE,
 * above the host's region; the host refuses a module with data below it.
 *
 * Memory layout (linear memory, exported as "memory" or imported as env.memory):
 *   [0x000000 - 0x00FFFF]  host scratch: length slots the host passes you
 *   [0x010000 - 0x01FFFF]  reserved
 *   [0x020000 - 0x0FFFFF]  host heap: host_alloc blocks and the host's per-call
 *                          buffers (tool name, arguments, output buffer)
 *   [0x100000 - ...     ]  yours
 *
 * Strings are UTF-8 (pointer, length) pairs, never NUL-terminated.
 * Output convention (plugin exports and host imports alike): the caller puts
 * the buffer's capacity in *outLenPtr; the callee writes at most that many
 * bytes and stores the length it wrote (or, if it did not fit, the length it
 * needs, returning CORTEX_ERR_BUFFER_TOO_SMALL).
 */

#ifndef CORTEX_PLUGIN_H
#define CORTEX_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ── Constants ───────────────────────────────────────────────── */

#define CORTEX_ABI_VERSION 1

/** First address that is yours; link with --global-base=1048576. */
#define CORTEX_HEAP_BASE 0x100000
/** Size of the host scratch area (do not use this memory). */
#define CORTEX_SCRATCH_SIZE 65536
/** The host heap that host_alloc serves. */
#define CORTEX_HOST_HEAP_START 0x20000
#define CORTEX_HOST_HEAP_END 0x100000
/** Largest single host_alloc block (the whole host heap, if nothing else uses it). */
#define CORTEX_MAX_ALLOC (CORTEX_HOST_HEAP_END - CORTEX_HOST_HEAP_START)

/** Return codes. */
#define CORTEX_OK 0
#define CORTEX_ERR (-1)                  /* not found, or failed */
#define CORTEX_ERR_BUFFER_TOO_SMALL (-2) /* needed length stored in the length slot */
#define CORTEX_ERR_DENIED (-3)           /* refused by policy (network) */

#define CORTEX_IMPORT(name) __attribute__((import_module("env"), import_name(#name)))
/** Export a function under its own name (same spelling as the reference header). */
#define CORTEX_EXPORT(...) __attribute__((export_name(#__VA_ARGS__)))

/* ── Host functions (import only what you call) ──────────────── */

/** An 8-aligned block of `size` bytes in the host heap, or 0 when none is free. */
CORTEX_IMPORT(host_alloc) void* host_alloc(uint32_t size);

/** Frees a host_alloc block; 0 and unknown pointers are ignored. */
CORTEX_IMPORT(host_free) void host_free(void* ptr);

/** Logs `len` bytes of UTF-8 at `ptr` (info level; at most 16 KiB is kept). */
CORTEX_IMPORT(host_log) void host_log(const char* ptr, uint32_t len);

/**
 * Reads a value from the plugin's own config section. Strings arrive as-is,
 * other values as JSON. *outValueLenPtr holds the capacity on entry.
 * Returns CORTEX_OK, CORTEX_ERR (not set) or CORTEX_ERR_BUFFER_TOO_SMALL
 * (the first capacity bytes are written and the full length stored).
 */
CORTEX_IMPORT(host_get_config)
int32_t host_get_config(const char* keyPtr, uint32_t keyLen, char* outValuePtr, uint32_t* outValueLenPtr);

/**
 * Persists a UTF-8 value under a key (keys up to 1 KiB, values up to 1 MiB).
 * It is stored before this returns. If the host cannot store it, the call
 * traps and the tool call fails with code state_failed.
 */
CORTEX_IMPORT(host_set_state)
void host_set_state(const char* keyPtr, uint32_t keyLen, const char* valuePtr, uint32_t valueLen);

/** Reads a persisted value; same returns as host_get_config. */
CORTEX_IMPORT(host_get_state)
int32_t host_get_state(const char* keyPtr, uint32_t keyLen, char* outValuePtr, uint32_t* outValueLenPtr);

/**
 * A blocking HTTP request (only your plugin's Worker waits).
 *   method/url/body/headers: UTF-8; a zero length means none ("GET" for the
 *   method); headers are a JSON object of strings, e.g. {"Accept":"text/plain"}.
 *   *outStatusPtr receives the real HTTP status (0 when there was no response).
 *   *outBodyLenPtr holds the capacity on entry and the body length on return.
 * Returns CORTEX_OK (any status, 404 included), CORTEX_ERR (timeout, network
 * error, response too large; the body holds a short reason),
 * CORTEX_ERR_DENIED (network not granted or address refused; body holds the
 * reason), or CORTEX_ERR_BUFFER_TOO_SMALL (the first capacity bytes are
 * written, the full length stored; requesting again repeats the request).
 */
CORTEX_IMPORT(host_http_request)
int32_t host_http_request(const char* methodPtr, uint32_t methodLen, const char* urlPtr, uint32_t urlLen,
                          const char* bodyPtr, uint32_t bodyLen, const char* headersPtr, uint32_t headersLen,
                          uint32_t* outStatusPtr, char* outBodyPtr, uint32_t* outBodyLenPtr);

/** The host's ABI version (1). */
CORTEX_IMPORT(host_get_abi_version) int32_t host_get_abi_version(void);

/** Milliseconds since the Unix epoch, as a full 64-bit integer. */
CORTEX_IMPORT(host_get_time_ms) int64_t host_get_time_ms(void);

/** Fills `len` bytes at `outPtr` with cryptographically secure random bytes. */
CORTEX_IMPORT(host_random) void host_random(char* outPtr, uint32_t len);

/* ── Plugin exports ──────────────────────────────────────────── */

/** Required: return CORTEX_ABI_VERSION. */
CORTEX_EXPORT(plugin_get_abi_version) int32_t plugin_get_abi_version(void);

/** Optional: called once after instantiation (and again after a restart). */
CORTEX_EXPORT(plugin_init) void plugin_init(void);

/** Optional: called before the plugin is unloaded. */
CORTEX_EXPORT(plugin_destroy) void plugin_destroy(void);

/**
 * Required: write the capabilities JSON to outJsonPtr (capacity in
 * *outLenPtr), store its length, return CORTEX_OK:
 *   {"abi_version":1,"tools":[{"name":"echo","description":"...",
 *     "params":[{"name":"text","type":"string","description":"...","required":true}]}]}
 */
CORTEX_EXPORT(plugin_get_capabilities) int32_t plugin_get_capabilities(char* outJsonPtr, uint32_t* outLenPtr);

/**
 * Required: run a tool. The name and the JSON arguments object are read-only
 * and valid during the call only. Return CORTEX_OK with the result in the
 * output buffer, any other non-zero code with an error message there, or
 * CORTEX_ERR_BUFFER_TOO_SMALL with the needed length stored: the host then
 * calls once more, with the same name and arguments and a buffer that large.
 */
CORTEX_EXPORT(plugin_execute_tool)
int32_t plugin_execute_tool(const char* toolNamePtr, uint32_t toolNameLen, const char* argsJsonPtr, uint32_t argsJsonLen,
                            char* outResultPtr, uint32_t* outLenPtr);

/* ── Helpers ─────────────────────────────────────────────────── */

/*
 * The compiler may emit calls to these even without libc. With -mbulk-memory
 * it uses memory.copy/memory.fill instead; these weak versions cover builds
 * without it. no_builtin keeps the loops from being turned back into calls.
 */
__attribute__((weak, no_builtin)) void* memcpy(void* dst, const void* src, size_t n) {
  unsigned char* d = (unsigned char*)dst;
  const unsigned char* s = (const unsigned char*)src;
  while (n--) *d++ = *s++;
  return dst;
}

__attribute__((weak, no_builtin)) void* memset(void* dst, int value, size_t n) {
  unsigned char* d = (unsigned char*)dst;
  while (n--) *d++ = (unsigned char)value;
  return dst;
}

__attribute__((weak, no_builtin)) void* memmove(void* dst, const void* src, size_t n) {
  unsigned char* d = (unsigned char*)dst;
  const unsigned char* s = (const unsigned char*)src;
  if (d < s) {
    while (n--) *d++ = *s++;
  } else {
    while (n--) d[n] = s[n];
  }
  return dst;
}

/** Length of a NUL-terminated C string. */
static inline uint32_t cortex_strlen(const char* s) {
  uint32_t n = 0;
  while (s[n]) n++;
  return n;
}

/** Whether `len` bytes at `a` equal the NUL-terminated `b`. */
static inline int cortex_equals(const char* a, uint32_t len, const char* b) {
  uint32_t i = 0;
  for (; i < len; i++) {
    if (b[i] == 0 || a[i] != b[i]) return 0;
  }
  return b[i] == 0;
}

/** Logs a NUL-terminated message. */
static inline void cortex_log(const char* message) { host_log(message, cortex_strlen(message)); }

/**
 * Writes `len` bytes to an output buffer whose capacity is *outLenPtr.
 * Returns CORTEX_OK, or CORTEX_ERR_BUFFER_TOO_SMALL with the needed length
 * stored (return that code from your export and the host retries once).
 */
static inline int32_t cortex_output(char* out, uint32_t* outLenPtr, const void* data, uint32_t len) {
  if (len > *outLenPtr) {
    *outLenPtr = len;
    return CORTEX_ERR_BUFFER_TOO_SMALL;
  }
  memcpy(out, data, len);
  *outLenPtr = len;
  return CORTEX_OK;
}

/** Writes an error message (cut to the capacity) and returns CORTEX_ERR. */
static inline int32_t cortex_error(char* out, uint32_t* outLenPtr, const char* message) {
  uint32_t len = cortex_strlen(message);
  if (len > *outLenPtr) len = *outLenPtr;
  memcpy(out, message, len);
  *outLenPtr = len;
  return CORTEX_ERR;
}

#ifdef __cplusplus
}
#endif

#endif /* CORTEX_PLUGIN_H */
