/**
 * A small JSON reader and writer for plugin arguments and results, in
 * AssemblyScript (which has no built-in JSON).
 *
 * @module
 */

/** JSON value kinds. */
export const JSON_NULL: i32 = 0;
export const JSON_BOOL: i32 = 1;
export const JSON_NUMBER: i32 = 2;
export const JSON_STRING: i32 = 3;
export const JSON_ARRAY: i32 = 4;
export const JSON_OBJECT: i32 = 5;

/** A parsed JSON value. */
export class JsonValue {
  kind: i32 = JSON_NULL;
  bool: bool = false;
  num: f64 = 0;
  str: string = "";
  items: JsonValue[] = [];
  keys: string[] = [];
  values: JsonValue[] = [];

  /** The member `key` of an object, or null. */
  get(key: string): JsonValue | null {
    for (let i = 0; i < this.keys.length; i++) {
      if (this.keys[i] == key) return this.values[i];
    }
    return null;
  }

  /** Whether the object has a member `key`. */
  has(key: string): bool {
    return this.get(key) !== null;
  }

  /** The string member `key`, or null when absent or not a string. */
  getString(key: string): string | null {
    const v = this.get(key);
    if (v === null || v.kind != JSON_STRING) return null;
    return v.str;
  }

  /** The number member `key`, or NaN when absent or not a number. */
  getNumber(key: string): f64 {
    const v = this.get(key);
    if (v === null || v.kind != JSON_NUMBER) return NaN;
    return v.num;
  }
}

class Parser {
  text: string;
  at: i32 = 0;
  failed: bool = false;

  constructor(text: string) {
    this.text = text;
  }

  peek(): i32 {
    return this.at < this.text.length ? this.text.charCodeAt(this.at) : -1;
  }

  space(): void {
    for (;;) {
      const c = this.peek();
      if (c == 0x20 || c == 0x09 || c == 0x0a || c == 0x0d) this.at++;
      else return;
    }
  }

  expect(word: string): void {
    if (this.text.substr(this.at, word.length) == word) this.at += word.length;
    else this.failed = true;
  }

  value(): JsonValue {
    const v = new JsonValue();
    this.space();
    const c = this.peek();
    if (c == 0x7b) this.object(v);
    else if (c == 0x5b) this.array(v);
    else if (c == 0x22) {
      v.kind = JSON_STRING;
      v.str = this.string();
    } else if (c == 0x74) {
      this.expect("true");
      v.kind = JSON_BOOL;
      v.bool = true;
    } else if (c == 0x66) {
      this.expect("false");
      v.kind = JSON_BOOL;
    } else if (c == 0x6e) this.expect("null");
    else this.number(v);
    return v;
  }

  object(v: JsonValue): void {
    v.kind = JSON_OBJECT;
    this.at++;
    this.space();
    if (this.peek() == 0x7d) {
      this.at++;
      return;
    }
    while (!this.failed) {
      this.space();
      if (this.peek() != 0x22) {
        this.failed = true;
        return;
      }
      v.keys.push(this.string());
      this.space();
      if (this.peek() != 0x3a) {
        this.failed = true;
        return;
      }
      this.at++;
      v.values.push(this.value());
      this.space();
      const c = this.peek();
      this.at++;
      if (c == 0x7d) return;
      if (c != 0x2c) this.failed = true;
    }
  }

  array(v: JsonValue): void {
    v.kind = JSON_ARRAY;
    this.at++;
    this.space();
    if (this.peek() == 0x5d) {
      this.at++;
      return;
    }
    while (!this.failed) {
      v.items.push(this.value());
      this.space();
      const c = this.peek();
      this.at++;
      if (c == 0x5d) return;
      if (c != 0x2c) this.failed = true;
    }
  }

  string(): string {
    this.at++;
    let out = "";
    let start = this.at;
    while (!this.failed) {
      const c = this.peek();
      if (c < 0) {
        this.failed = true;
        break;
      }
      if (c == 0x22) {
        out += this.text.substring(start, this.at);
        this.at++;
        return out;
      }
      if (c != 0x5c) {
        this.at++;
        continue;
      }
      out += this.text.substring(start, this.at);
      const e = this.text.charCodeAt(this.at + 1);
      this.at += 2;
      if (e == 0x6e) out += "\n";
      else if (e == 0x74) out += "\t";
      else if (e == 0x72) out += "\r";
      else if (e == 0x62) out += "\b";
      else if (e == 0x66) out += "\f";
      else if (e == 0x75) {
        const code = I32.parseInt(this.text.substr(this.at, 4), 16);
        this.at += 4;
        // UTF-16 code units: a surrogate pair is two escapes, kept as is.
        out += String.fromCharCode(code);
      } else out += String.fromCharCode(e);
      start = this.at;
    }
    return out;
  }

  number(v: JsonValue): void {
    const start = this.at;
    for (;;) {
      const c = this.peek();
      const numeric = (c >= 0x30 && c <= 0x39) || c == 0x2d || c == 0x2b ||
        c == 0x2e || c == 0x65 || c == 0x45;
      if (!numeric) break;
      this.at++;
    }
    if (this.at == start) {
      this.failed = true;
      return;
    }
    v.kind = JSON_NUMBER;
    v.num = parseFloat(this.text.substring(start, this.at));
    if (isNaN(v.num)) this.failed = true;
  }
}

/** Parses JSON text; returns null when it is malformed. */
export function parseJson(text: string): JsonValue | null {
  const parser = new Parser(text);
  const v = parser.value();
  parser.space();
  if (parser.failed || parser.at != text.length) return null;
  return v;
}

/** Writes a string as a JSON string literal (quotes included). */
export function quoteJson(s: string): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c != 0x22 && c != 0x5c && c >= 0x20) continue;
    out += s.substring(start, i);
    if (c == 0x22) out += '\\"';
    else if (c == 0x5c) out += "\\\\";
    else if (c == 0x0a) out += "\\n";
    else {
      const hex = c.toString(16);
      out += "\\u" + "0000".substr(hex.length) + hex;
    }
    start = i + 1;
  }
  return out + s.substring(start) + '"';
}

/** Formats a number as JSON does: integers without a fraction, NaN and infinities as null. */
export function formatNumber(n: f64): string {
  if (!isFinite(n)) return "null";
  if (Math.floor(n) == n && Math.abs(n) < 9007199254740992) {
    return (<i64> n).toString();
  }
  return n.toString();
}
