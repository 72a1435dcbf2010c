/*
 * The echo tool of examples/wasm/echo-c, written against the Extism kernel
 * ABI instead of Cortex ABI v1, so bench/wasm_bench.ts can run the same
 * logic in Extism's JS SDK. The input is the arguments JSON, the output the
 * text. Built by the bench with compileC.
 */

#include "cortex_json.h"

#define EXTISM_IMPORT(name) __attribute__((import_module("extism:host/env"), import_name(#name)))

EXTISM_IMPORT(input_length) uint64_t extism_input_length(void);
EXTISM_IMPORT(input_load_u64) uint64_t extism_input_load_u64(uint64_t offset);
EXTISM_IMPORT(input_load_u8) uint32_t extism_input_load_u8(uint64_t offset);
EXTISM_IMPORT(alloc) uint64_t extism_alloc(uint64_t length);
EXTISM_IMPORT(store_u64) void extism_store_u64(uint64_t offset, uint64_t value);
EXTISM_IMPORT(store_u8) void extism_store_u8(uint64_t offset, uint32_t value);
EXTISM_IMPORT(output_set) void extism_output_set(uint64_t offset, uint64_t length);

static char input[65536];
static char text[65536];

__attribute__((export_name("echo"))) int32_t echo(void) {
  uint64_t n = extism_input_length();
  if (n > sizeof input) return 1;
  uint64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t word = extism_input_load_u64(i);
    memcpy(input + i, &word, 8);
  }
  for (; i < n; i++) input[i] = (char)extism_input_load_u8(i);
  uint32_t len;
  if (cortex_json_string(input, (uint32_t)n, "text", text, sizeof text, &len) != CORTEX_OK) return 1;
  uint64_t out = extism_alloc(len);
  uint32_t k = 0;
  for (; k + 8 <= len; k += 8) {
    uint64_t word;
    memcpy(&word, text + k, 8);
    extism_store_u64(out + k, word);
  }
  for (; k < len; k++) extism_store_u8(out + k, (uint8_t)text[k]);
  extism_output_set(out, len);
  return 0;
}
