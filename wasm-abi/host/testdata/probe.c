/*
 * A test plugin that exercises every corner of ABI v1: the pointers the host
 * passes, the retry on a small buffer, unaligned length slots, every host
 * import, traps, loops and memory growth. Built by the tests with compileC.
 */

#include "cortex_json.h"
#include "cortex_plugin.h"

static const char CAPABILITIES[] =
    "{\"abi_version\":1,\"tools\":["
    "{\"name\":\"slots\",\"params\":[]},"
    "{\"name\":\"big\",\"params\":[{\"name\":\"n\",\"type\":\"number\",\"required\":true}]},"
    "{\"name\":\"stubborn\",\"params\":[]},"
    "{\"name\":\"calls\",\"params\":[]},"
    "{\"name\":\"args\",\"params\":[]},"
    "{\"name\":\"set_state\",\"params\":[]},"
    "{\"name\":\"odd_state\",\"params\":[]},"
    "{\"name\":\"config\",\"params\":[]},"
    "{\"name\":\"time\",\"params\":[]},"
    "{\"name\":\"random\",\"params\":[]},"
    "{\"name\":\"http\",\"params\":[]},"
    "{\"name\":\"log\",\"params\":[]},"
    "{\"name\":\"alloc\",\"params\":[]},"
    "{\"name\":\"grow\",\"params\":[]},"
    "{\"name\":\"trap\",\"params\":[]},"
    "{\"name\":\"oob\",\"params\":[]},"
    "{\"name\":\"host_oob\",\"params\":[]},"
    "{\"name\":\"loop\",\"params\":[]},"
    "{\"name\":\"bad_utf8\",\"params\":[]},"
    "{\"name\":\"fail\",\"params\":[]}"
    "]}";

/* Counts calls since the instance started; plugin_init resets it. */
static int64_t calls;
static int64_t stubbornCalls;

typedef struct {
  char* buf;
  uint32_t cap;
  uint32_t len;
} Writer;

static char scratch[65536];
static char value[65536];
static char text[4096];

static void put(Writer* w, const char* s, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    if (w->len < w->cap) w->buf[w->len] = s[i];
    w->len++;
  }
}

static void puts_(Writer* w, const char* s) { put(w, s, cortex_strlen(s)); }

static void put_i64(Writer* w, int64_t v) {
  char digits[24];
  put(w, digits, cortex_format_i64(v, digits));
}

static void put_escaped(Writer* w, const char* s, uint32_t n) {
  uint32_t need = cortex_json_escape(s, n, w->len < w->cap ? w->buf + w->len : w->buf, w->len < w->cap ? w->cap - w->len : 0);
  w->len += need;
}

static int32_t finish(Writer* w, char* out, uint32_t* outLenPtr) { return cortex_output(out, outLenPtr, w->buf, w->len); }

static double number(const char* args, uint32_t argsLen, const char* key, double fallback) {
  double v;
  return cortex_json_number(args, argsLen, key, &v) == CORTEX_OK ? v : fallback;
}

static uint32_t string(const char* args, uint32_t argsLen, const char* key, char* buf, uint32_t cap) {
  uint32_t len = 0;
  return cortex_json_string(args, argsLen, key, buf, cap, &len) == CORTEX_OK ? len : 0;
}

void plugin_init(void) { calls = 0; }

int32_t plugin_get_abi_version(void) { return CORTEX_ABI_VERSION; }

int32_t plugin_get_capabilities(char* out, uint32_t* outLenPtr) {
  return cortex_output(out, outLenPtr, CAPABILITIES, sizeof CAPABILITIES - 1);
}

static int32_t http(const char* args, uint32_t argsLen, Writer* w) {
  static char method[16], url[2048], body[4096], headers[1024];
  uint32_t methodLen = string(args, argsLen, "method", method, sizeof method);
  uint32_t urlLen = string(args, argsLen, "url", url, sizeof url);
  uint32_t bodyLen = string(args, argsLen, "body", body, sizeof body);
  uint32_t headersLen = string(args, argsLen, "headers", headers, sizeof headers);
  uint32_t cap = (uint32_t)number(args, argsLen, "cap", sizeof value);
  /* Deliberately odd addresses: the host must not need aligned slots. */
  static char slots[16];
  uint32_t* status = (uint32_t*)(slots + 1);
  uint32_t* len = (uint32_t*)(slots + 7);
  *status = 12345;
  *len = cap;
  int32_t rc = host_http_request(method, methodLen, url, urlLen, body, bodyLen, headers, headersLen, status, value + 1, len);
  uint32_t shown = *len < cap ? *len : cap;
  puts_(w, "{\"rc\":");
  put_i64(w, rc);
  puts_(w, ",\"status\":");
  put_i64(w, *status);
  puts_(w, ",\"len\":");
  put_i64(w, *len);
  puts_(w, ",\"body\":");
  put_escaped(w, value + 1, shown);
  puts_(w, "}");
  return CORTEX_OK;
}

static int32_t odd_state(const char* args, uint32_t argsLen, Writer* w) {
  uint32_t keyLen = string(args, argsLen, "key", text, sizeof text);
  static char slot[8];
  uint32_t* len = (uint32_t*)(slot + 3);
  *len = 2;
  int32_t first = host_get_state(text, keyLen, value + 3, len);
  uint32_t needed = *len;
  *len = needed;
  int32_t second = host_get_state(text, keyLen, value + 3, len);
  puts_(w, "{\"first\":");
  put_i64(w, first);
  puts_(w, ",\"needed\":");
  put_i64(w, needed);
  puts_(w, ",\"second\":");
  put_i64(w, second);
  puts_(w, ",\"value\":");
  put_escaped(w, value + 3, second == CORTEX_OK ? *len : 0);
  puts_(w, "}");
  return CORTEX_OK;
}

int32_t plugin_execute_tool(const char* name, uint32_t nameLen, const char* args, uint32_t argsLen, char* out,
                            uint32_t* outLenPtr) {
  Writer w = {scratch, sizeof scratch, 0};
  calls++;
  if (cortex_equals(name, nameLen, "slots")) {
    puts_(&w, "{\"name\":");
    put_i64(&w, (int64_t)(uintptr_t)name);
    puts_(&w, ",\"nameLen\":");
    put_i64(&w, nameLen);
    puts_(&w, ",\"args\":");
    put_i64(&w, (int64_t)(uintptr_t)args);
    puts_(&w, ",\"argsLen\":");
    put_i64(&w, argsLen);
    puts_(&w, ",\"out\":");
    put_i64(&w, (int64_t)(uintptr_t)out);
    puts_(&w, ",\"outLenPtr\":");
    put_i64(&w, (int64_t)(uintptr_t)outLenPtr);
    puts_(&w, ",\"capacity\":");
    put_i64(&w, *outLenPtr);
    puts_(&w, "}");
    return finish(&w, out, outLenPtr);
  }
  if (cortex_equals(name, nameLen, "big")) {
    /* Writes straight into the host's buffer: n bytes, starting "capacity=<capacity it was given>;". */
    uint32_t n = (uint32_t)number(args, argsLen, "n", 0);
    uint32_t cap = *outLenPtr;
    if (n > cap) {
      *outLenPtr = n;
      return CORTEX_ERR_BUFFER_TOO_SMALL;
    }
    Writer b = {out, cap, 0};
    puts_(&b, "capacity=");
    put_i64(&b, cap);
    puts_(&b, ";");
    while (b.len < n) put(&b, "x", 1);
    *outLenPtr = n;
    return CORTEX_OK;
  }
  if (cortex_equals(name, nameLen, "stubborn")) {
    stubbornCalls++;
    *outLenPtr = *outLenPtr + 1;
    return CORTEX_ERR_BUFFER_TOO_SMALL;
  }
  if (cortex_equals(name, nameLen, "calls")) {
    puts_(&w, "{\"calls\":");
    put_i64(&w, calls);
    puts_(&w, ",\"stubborn\":");
    put_i64(&w, stubbornCalls);
    puts_(&w, "}");
    return finish(&w, out, outLenPtr);
  }
  if (cortex_equals(name, nameLen, "args")) return cortex_output(out, outLenPtr, args, argsLen);
  if (cortex_equals(name, nameLen, "set_state")) {
    static char key[256];
    uint32_t keyLen = string(args, argsLen, "key", key, sizeof key);
    uint32_t valueLen = string(args, argsLen, "value", value, sizeof value);
    host_set_state(key, keyLen, value, valueLen);
    return cortex_output(out, outLenPtr, "ok", 2);
  }
  if (cortex_equals(name, nameLen, "odd_state")) {
    odd_state(args, argsLen, &w);
    return finish(&w, out, outLenPtr);
  }
  if (cortex_equals(name, nameLen, "config")) {
    uint32_t keyLen = string(args, argsLen, "key", text, sizeof text);
    uint32_t len = sizeof value;
    int32_t rc = host_get_config(text, keyLen, value, &len);
    puts_(&w, "{\"rc\":");
    put_i64(&w, rc);
    puts_(&w, ",\"value\":");
    put_escaped(&w, value, rc == CORTEX_OK ? len : 0);
    puts_(&w, "}");
    return finish(&w, out, outLenPtr);
  }
  if (cortex_equals(name, nameLen, "time")) {
    put_i64(&w, host_get_time_ms());
    return finish(&w, out, outLenPtr);
  }
  if (cortex_equals(name, nameLen, "random")) {
    static const char hex[] = "0123456789abcdef";
    uint32_t n = (uint32_t)number(args, argsLen, "n", 16);
    if (n > sizeof value) n = sizeof value;
    host_random(value, n);
    for (uint32_t i = 0; i < n; i++) {
      put(&w, &hex[(uint8_t)value[i] >> 4], 1);
      put(&w, &hex[(uint8_t)value[i] & 15], 1);
    }
    return finish(&w, out, outLenPtr);
  }
  if (cortex_equals(name, nameLen, "http")) {
    http(args, argsLen, &w);
    return finish(&w, out, outLenPtr);
  }
  if (cortex_equals(name, nameLen, "log")) {
    uint32_t len = string(args, argsLen, "text", text, sizeof text);
    host_log(text, len);
    return cortex_output(out, outLenPtr, "logged", 6);
  }
  if (cortex_equals(name, nameLen, "alloc")) {
    uint32_t size = (uint32_t)number(args, argsLen, "size", 1);
    char* a = (char*)host_alloc(size);
    char* b = (char*)host_alloc(size);
    host_free(a);
    char* c = (char*)host_alloc(size);
    puts_(&w, "{\"a\":");
    put_i64(&w, (int64_t)(uintptr_t)a);
    puts_(&w, ",\"b\":");
    put_i64(&w, (int64_t)(uintptr_t)b);
    puts_(&w, ",\"c\":");
    put_i64(&w, (int64_t)(uintptr_t)c);
    puts_(&w, "}");
    host_free(b);
    host_free(c);
    return finish(&w, out, outLenPtr);
  }
  if (cortex_equals(name, nameLen, "grow")) {
    int32_t pages = (int32_t)number(args, argsLen, "pages", 1);
    put_i64(&w, (int32_t)__builtin_wasm_memory_grow(0, pages));
    return finish(&w, out, outLenPtr);
  }
  if (cortex_equals(name, nameLen, "trap")) __builtin_trap();
  if (cortex_equals(name, nameLen, "oob")) {
    volatile uint32_t* far = (volatile uint32_t*)0xFFFFFFF0u;
    put_i64(&w, *far);
    return finish(&w, out, outLenPtr);
  }
  if (cortex_equals(name, nameLen, "host_oob")) {
    host_log((const char*)0xFFFFFF00u, 1000);
    return cortex_output(out, outLenPtr, "unreachable", 11);
  }
  if (cortex_equals(name, nameLen, "loop")) {
    volatile int spin = 1;
    while (spin) {
    }
    return CORTEX_OK;
  }
  if (cortex_equals(name, nameLen, "bad_utf8")) return cortex_output(out, outLenPtr, "\xff\xfe", 2);
  if (cortex_equals(name, nameLen, "fail")) {
    cortex_error(out, outLenPtr, "it failed on purpose");
    return 7;
  }
  return cortex_error(out, outLenPtr, "unknown tool");
}
