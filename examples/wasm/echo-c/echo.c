/*
 * Example Cortex WASM plugin in C (ABI v1): echo, add, count (state) and
 * greet (config). Built by wasm-abi/build_examples.ts:
 *
 *   clang --target=wasm32 -O2 -nostdlib -ffreestanding -mbulk-memory -I wasm-abi/c \
 *     -Wl,--no-entry -Wl,--global-base=1048576 -o echo.wasm echo.c
 */

#include "cortex_json.h"
#include "cortex_plugin.h"

static const char CAPABILITIES[] =
    "{\"abi_version\":1,\"tools\":["
    "{\"name\":\"echo\",\"description\":\"Returns the text it is given\","
    "\"params\":[{\"name\":\"text\",\"type\":\"string\",\"description\":\"Text to return\",\"required\":true}]},"
    "{\"name\":\"add\",\"description\":\"Adds two numbers\","
    "\"params\":[{\"name\":\"a\",\"type\":\"number\",\"description\":\"First number\",\"required\":true},"
    "{\"name\":\"b\",\"type\":\"number\",\"description\":\"Second number\",\"required\":true}]},"
    "{\"name\":\"count\",\"description\":\"Counts its calls in persistent state and returns the new count\","
    "\"params\":[]},"
    "{\"name\":\"greet\",\"description\":\"Greets someone with the configured greeting (config key: greeting)\","
    "\"params\":[{\"name\":\"name\",\"type\":\"string\",\"description\":\"Who to greet\",\"required\":true}]}"
    "]}";

int32_t plugin_get_abi_version(void) { return CORTEX_ABI_VERSION; }

int32_t plugin_get_capabilities(char* out, uint32_t* outLenPtr) {
  return cortex_output(out, outLenPtr, CAPABILITIES, sizeof CAPABILITIES - 1);
}

static int32_t echo(const char* args, uint32_t argsLen, char* out, uint32_t* outLenPtr) {
  uint32_t len;
  int32_t rc = cortex_json_string(args, argsLen, "text", out, *outLenPtr, &len);
  if (rc == CORTEX_ERR) return cortex_error(out, outLenPtr, "echo needs a string argument 'text'");
  *outLenPtr = len; /* on CORTEX_ERR_BUFFER_TOO_SMALL this is the size to retry with */
  return rc;
}

static int32_t add(const char* args, uint32_t argsLen, char* out, uint32_t* outLenPtr) {
  double a, b;
  if (cortex_json_number(args, argsLen, "a", &a) != CORTEX_OK || cortex_json_number(args, argsLen, "b", &b) != CORTEX_OK) {
    return cortex_error(out, outLenPtr, "add needs numbers 'a' and 'b'");
  }
  char text[32];
  return cortex_output(out, outLenPtr, text, cortex_format_number(a + b, text));
}

static int32_t count(char* out, uint32_t* outLenPtr) {
  static const char key[] = "count";
  char stored[32];
  uint32_t storedLen = sizeof stored;
  int64_t n = 0;
  if (host_get_state(key, sizeof key - 1, stored, &storedLen) == CORTEX_OK) {
    for (uint32_t i = 0; i < storedLen && stored[i] >= '0' && stored[i] <= '9'; i++) n = n * 10 + (stored[i] - '0');
  }
  char text[24];
  uint32_t len = cortex_format_i64(n + 1, text);
  host_set_state(key, sizeof key - 1, text, len);
  return cortex_output(out, outLenPtr, text, len);
}

static char nameBuf[1024];
static char greetingBuf[1024];

static int32_t greet(const char* args, uint32_t argsLen, char* out, uint32_t* outLenPtr) {
  uint32_t nameLen;
  if (cortex_json_string(args, argsLen, "name", nameBuf, sizeof nameBuf, &nameLen) != CORTEX_OK) {
    return cortex_error(out, outLenPtr, "greet needs a string argument 'name' of at most 1024 bytes");
  }
  static const char key[] = "greeting";
  uint32_t greetingLen = sizeof greetingBuf;
  if (host_get_config(key, sizeof key - 1, greetingBuf, &greetingLen) != CORTEX_OK) {
    memcpy(greetingBuf, "Hello", 5);
    greetingLen = 5;
  }
  uint32_t total = greetingLen + 2 + nameLen + 1;
  if (total > *outLenPtr) {
    *outLenPtr = total;
    return CORTEX_ERR_BUFFER_TOO_SMALL;
  }
  memcpy(out, greetingBuf, greetingLen);
  memcpy(out + greetingLen, ", ", 2);
  memcpy(out + greetingLen + 2, nameBuf, nameLen);
  out[total - 1] = '!';
  *outLenPtr = total;
  return CORTEX_OK;
}

int32_t plugin_execute_tool(const char* name, uint32_t nameLen, const char* args, uint32_t argsLen, char* out,
                            uint32_t* outLenPtr) {
  if (cortex_equals(name, nameLen, "echo")) return echo(args, argsLen, out, outLenPtr);
  if (cortex_equals(name, nameLen, "add")) return add(args, argsLen, out, outLenPtr);
  if (cortex_equals(name, nameLen, "count")) return count(out, outLenPtr);
  if (cortex_equals(name, nameLen, "greet")) return greet(args, argsLen, out, outLenPtr);
  return cortex_error(out, outLenPtr, "unknown tool");
}
