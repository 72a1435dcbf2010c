/*
 * Small JSON helpers for Cortex WASM plugins written in C, without libc:
 * read a top-level field of the arguments object, escape a string for a JSON
 * result, format numbers. Include after cortex_plugin.h.
 *
 *   char text[256]; uint32_t textLen;
 *   if (cortex_json_string(args, argsLen, "text", text, sizeof text, &textLen) != CORTEX_OK) ...
 *   double a; cortex_json_number(args, argsLen, "a", &a);
 *
 * Keys are compared as written in the JSON (a key spelled with escapes does
 * not match). Only the top level of the object is searched.
 */

#ifndef CORTEX_JSON_H
#define CORTEX_JSON_H

#include "cortex_plugin.h"

static inline int cortex__is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static inline uint32_t cortex__ws(const char* s, uint32_t i, uint32_t n) {
  while (i < n && cortex__is_ws(s[i])) i++;
  return i;
}

/* s[i] is '"'; returns the index after the closing quote, or n + 1. */
static inline uint32_t cortex__skip_string(const char* s, uint32_t i, uint32_t n) {
  for (i++; i < n; i++) {
    if (s[i] == '\\') i++;
    else if (s[i] == '"') return i + 1;
  }
  return n + 1;
}

/* Returns the index after the value starting at i, or n + 1 if malformed. */
static inline uint32_t cortex__skip_value(const char* s, uint32_t i, uint32_t n) {
  if (i >= n) return n + 1;
  if (s[i] == '"') return cortex__skip_string(s, i, n);
  if (s[i] == '{' || s[i] == '[') {
    int depth = 0;
    while (i < n) {
      char c = s[i];
      if (c == '"') {
        i = cortex__skip_string(s, i, n);
        continue;
      }
      if (c == '{' || c == '[') depth++;
      else if (c == '}' || c == ']') {
        if (--depth == 0) return i + 1;
      }
      i++;
    }
    return n + 1;
  }
  while (i < n && s[i] != ',' && s[i] != '}' && s[i] != ']' && !cortex__is_ws(s[i])) i++;
  return i;
}

/**
 * Finds the raw value of `key` in the top-level JSON object. Returns a pointer
 * to it (with its length in *valueLen), or 0 when absent or malformed.
 */
static inline const char* cortex_json_find(const char* json, uint32_t n, const char* key, uint32_t* valueLen) {
  uint32_t i = cortex__ws(json, 0, n);
  if (i >= n || json[i] != '{') return 0;
  i = cortex__ws(json, i + 1, n);
  if (i < n && json[i] == '}') return 0;
  for (;;) {
    if (i >= n || json[i] != '"') return 0;
    uint32_t keyStart = i + 1;
    uint32_t keyEnd = cortex__skip_string(json, i, n);
    if (keyEnd > n) return 0;
    int match = cortex_equals(json + keyStart, keyEnd - 1 - keyStart, key);
    i = cortex__ws(json, keyEnd, n);
    if (i >= n || json[i] != ':') return 0;
    i = cortex__ws(json, i + 1, n);
    uint32_t valueEnd = cortex__skip_value(json, i, n);
    if (valueEnd > n) return 0;
    if (match) {
      *valueLen = valueEnd - i;
      return json + i;
    }
    i = cortex__ws(json, valueEnd, n);
    if (i >= n || json[i] != ',') return 0;
    i = cortex__ws(json, i + 1, n);
  }
}

static inline int cortex__hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static inline int32_t cortex__hex4(const char* s, uint32_t i, uint32_t n) {
  if (i + 4 > n) return -1;
  int32_t v = 0;
  for (uint32_t k = 0; k < 4; k++) {
    int h = cortex__hex(s[i + k]);
    if (h < 0) return -1;
    v = v * 16 + h;
  }
  return v;
}

/* Appends one code point as UTF-8; returns the bytes it takes (writes only within cap). */
static inline uint32_t cortex__utf8(uint32_t cp, char* out, uint32_t at, uint32_t cap) {
  char b[4];
  uint32_t len;
  if (cp < 0x80) {
    b[0] = (char)cp;
    len = 1;
  } else if (cp < 0x800) {
    b[0] = (char)(0xC0 | (cp >> 6));
    b[1] = (char)(0x80 | (cp & 0x3F));
    len = 2;
  } else if (cp < 0x10000) {
    b[0] = (char)(0xE0 | (cp >> 12));
    b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    b[2] = (char)(0x80 | (cp & 0x3F));
    len = 3;
  } else {
    b[0] = (char)(0xF0 | (cp >> 18));
    b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    b[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    b[3] = (char)(0x80 | (cp & 0x3F));
    len = 4;
  }
  for (uint32_t k = 0; k < len; k++) {
    if (at + k < cap) out[at + k] = b[k];
  }
  return len;
}

/**
 * Reads the string field `key`, unescaped to UTF-8, into out (capacity cap).
 * Returns CORTEX_OK with *outLen set, CORTEX_ERR when absent or not a string,
 * or CORTEX_ERR_BUFFER_TOO_SMALL with the needed length in *outLen.
 */
static inline int32_t cortex_json_string(const char* json, uint32_t n, const char* key, char* out, uint32_t cap,
                                         uint32_t* outLen) {
  uint32_t len;
  const char* v = cortex_json_find(json, n, key, &len);
  if (!v || len < 2 || v[0] != '"') return CORTEX_ERR;
  uint32_t at = 0;
  for (uint32_t i = 1; i + 1 < len; i++) {
    char c = v[i];
    if (c != '\\') {
      if (at < cap) out[at] = c;
      at++;
      continue;
    }
    c = v[++i];
    uint32_t cp;
    switch (c) {
      case 'n': cp = '\n'; break;
      case 't': cp = '\t'; break;
      case 'r': cp = '\r'; break;
      case 'b': cp = '\b'; break;
      case 'f': cp = '\f'; break;
      case 'u': {
        int32_t hi = cortex__hex4(v, i + 1, len - 1);
        if (hi < 0) return CORTEX_ERR;
        i += 4;
        cp = (uint32_t)hi;
        if (hi >= 0xD800 && hi <= 0xDBFF && i + 2 < len - 1 && v[i + 1] == '\\' && v[i + 2] == 'u') {
          int32_t lo = cortex__hex4(v, i + 3, len - 1);
          if (lo >= 0xDC00 && lo <= 0xDFFF) {
            cp = 0x10000 + (((uint32_t)hi - 0xD800) << 10) + ((uint32_t)lo - 0xDC00);
            i += 6;
          }
        }
        if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD; /* a lone surrogate has no UTF-8 form */
        break;
      }
      default: cp = (uint8_t)c; break; /* \" \\ \/ */
    }
    at += cortex__utf8(cp, out, at, cap);
  }
  *outLen = at;
  return at > cap ? CORTEX_ERR_BUFFER_TOO_SMALL : CORTEX_OK;
}

/** Reads the number field `key`. Returns CORTEX_OK or CORTEX_ERR. */
static inline int32_t cortex_json_number(const char* json, uint32_t n, const char* key, double* out) {
  uint32_t len;
  const char* v = cortex_json_find(json, n, key, &len);
  if (!v || len == 0) return CORTEX_ERR;
  uint32_t i = 0;
  double sign = 1, value = 0, scale = 1;
  int digits = 0;
  if (v[i] == '-') {
    sign = -1;
    i++;
  }
  for (; i < len && v[i] >= '0' && v[i] <= '9'; i++, digits++) value = value * 10 + (v[i] - '0');
  if (i < len && v[i] == '.') {
    for (i++; i < len && v[i] >= '0' && v[i] <= '9'; i++, digits++) {
      scale /= 10;
      value += (v[i] - '0') * scale;
    }
  }
  if (!digits) return CORTEX_ERR;
  if (i < len && (v[i] == 'e' || v[i] == 'E')) {
    int esign = 1, exp = 0;
    i++;
    if (i < len && (v[i] == '+' || v[i] == '-')) esign = v[i++] == '-' ? -1 : 1;
    for (; i < len && v[i] >= '0' && v[i] <= '9'; i++) exp = exp * 10 + (v[i] - '0');
    while (exp-- > 0) value = esign > 0 ? value * 10 : value / 10;
  }
  if (i != len) return CORTEX_ERR;
  *out = sign * value;
  return CORTEX_OK;
}

/** Formats a signed 64-bit integer; returns its length (out needs 21 bytes). */
static inline uint32_t cortex_format_i64(int64_t value, char* out) {
  char tmp[20];
  uint32_t n = 0, at = 0;
  uint64_t u = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
  do {
    tmp[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  if (value < 0) out[at++] = '-';
  while (n) out[at++] = tmp[--n];
  return at;
}

/**
 * Formats a number for JSON: integers exactly (up to 2^53), others with up
 * to 9 decimals, NaN and infinities as null. Returns its length (out needs 32 bytes).
 */
static inline uint32_t cortex_format_number(double value, char* out) {
  if (value != value || value > 1.7e308 || value < -1.7e308) {
    memcpy(out, "null", 4);
    return 4;
  }
  /* The range test comes first: converting a larger double to int64 traps. */
  if (value < 9007199254740992.0 && value > -9007199254740992.0 && value == (double)(int64_t)value) {
    return cortex_format_i64((int64_t)value, out);
  }
  uint32_t at = 0;
  if (value < 0) {
    out[at++] = '-';
    value = -value;
  }
  if (value >= 9007199254740992.0) { /* too large for this formatter's precision */
    memcpy(out + at, "9007199254740992", 16);
    return at + 16;
  }
  int64_t whole = (int64_t)value;
  int64_t frac = (int64_t)((value - (double)whole) * 1e9 + 0.5);
  if (frac >= 1000000000) {
    whole++;
    frac -= 1000000000;
  }
  at += cortex_format_i64(whole, out + at);
  if (frac) {
    char digits[9];
    for (int k = 8; k >= 0; k--) {
      digits[k] = (char)('0' + frac % 10);
      frac /= 10;
    }
    int last = 8;
    while (digits[last] == '0') last--;
    out[at++] = '.';
    for (int k = 0; k <= last; k++) out[at++] = digits[k];
  }
  return at;
}

/**
 * Writes `in` as a JSON string literal (quotes included) into out. Returns
 * the length it needs; it wrote everything only if that is <= cap.
 */
static inline uint32_t cortex_json_escape(const char* in, uint32_t inLen, char* out, uint32_t cap) {
  static const char hex[] = "0123456789abcdef";
  uint32_t at = 0;
#define CORTEX__PUT(ch)            \
  do {                             \
    if (at < cap) out[at] = (ch);  \
    at++;                          \
  } while (0)
  CORTEX__PUT('"');
  for (uint32_t i = 0; i < inLen; i++) {
    unsigned char c = (unsigned char)in[i];
    if (c == '"' || c == '\\') {
      CORTEX__PUT('\\');
      CORTEX__PUT((char)c);
    } else if (c == '\n') {
      CORTEX__PUT('\\');
      CORTEX__PUT('n');
    } else if (c < 0x20) {
      CORTEX__PUT('\\');
      CORTEX__PUT('u');
      CORTEX__PUT('0');
      CORTEX__PUT('0');
      CORTEX__PUT(hex[c >> 4]);
      CORTEX__PUT(hex[c & 15]);
    } else {
      CORTEX__PUT((char)c);
    }
  }
  CORTEX__PUT('"');
#undef CORTEX__PUT
  return at;
}

#endif /* CORTEX_JSON_H */
