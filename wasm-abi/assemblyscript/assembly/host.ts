/**
 * Friendly wrappers over the host imports: strings in, strings out, the
 * buffer-size protocol handled.
 *
 * @module
 */

import {
  host_get_config,
  host_get_state,
  host_get_time_ms,
  host_http_request,
  host_log,
  host_random,
  host_set_state,
} from "./env";

/** Success. */
export const CORTEX_OK: i32 = 0;
/** Not found, or failed. */
export const CORTEX_ERR: i32 = -1;
/** The output did not fit; the needed length is in the length slot. */
export const CORTEX_ERR_BUFFER_TOO_SMALL: i32 = -2;
/** Refused by policy. */
export const CORTEX_ERR_DENIED: i32 = -3;

function ptr(buffer: ArrayBuffer): usize {
  return changetype<usize>(buffer);
}

/** Logs a message (info level). */
export function log(message: string): void {
  const bytes = String.UTF8.encode(message);
  host_log(ptr(bytes), <u32> bytes.byteLength);
}

function readValue(fromState: bool, key: string): string | null {
  const k = String.UTF8.encode(key);
  const slot = new ArrayBuffer(4);
  let capacity: u32 = 256;
  for (let attempt = 0; attempt < 2; attempt++) {
    const out = new ArrayBuffer(capacity);
    store<u32>(ptr(slot), capacity);
    const rc = fromState
      ? host_get_state(ptr(k), <u32> k.byteLength, ptr(out), ptr(slot))
      : host_get_config(ptr(k), <u32> k.byteLength, ptr(out), ptr(slot));
    const length = load<u32>(ptr(slot));
    if (rc == CORTEX_OK) return String.UTF8.decodeUnsafe(ptr(out), length);
    if (rc != CORTEX_ERR_BUFFER_TOO_SMALL) return null;
    capacity = length;
  }
  return null;
}

/** A value from the plugin's config section (non-strings as JSON), or null. */
export function getConfig(key: string): string | null {
  return readValue(false, key);
}

/** A persisted state value, or null. */
export function getState(key: string): string | null {
  return readValue(true, key);
}

/** Persists a state value (stored before this returns). */
export function setState(key: string, value: string): void {
  const k = String.UTF8.encode(key);
  const v = String.UTF8.encode(value);
  host_set_state(ptr(k), <u32> k.byteLength, ptr(v), <u32> v.byteLength);
}

/** Milliseconds since the Unix epoch. */
export function timeMs(): i64 {
  return host_get_time_ms();
}

/** `n` cryptographically secure random bytes. */
export function randomBytes(n: i32): Uint8Array {
  const out = new Uint8Array(n);
  host_random(out.dataStart, <u32> n);
  return out;
}

/** The answer to {@link httpRequest}. */
export class HttpResponse {
  /** CORTEX_OK, CORTEX_ERR, CORTEX_ERR_DENIED or CORTEX_ERR_BUFFER_TOO_SMALL. */
  code: i32 = CORTEX_OK;
  /** The real HTTP status (0 when there was no response). */
  status: u32 = 0;
  /** The body (cut to the capacity when code is CORTEX_ERR_BUFFER_TOO_SMALL), or the reason of a failure. */
  body: string = "";
  /** The full body length in bytes. */
  length: u32 = 0;
}

/**
 * A blocking HTTP request. `headers` is a JSON object of strings (or "").
 * A body larger than `capacity` bytes comes back cut, with code
 * CORTEX_ERR_BUFFER_TOO_SMALL and its full length.
 */
export function httpRequest(
  method: string,
  url: string,
  body: string = "",
  headers: string = "",
  capacity: u32 = 65536,
): HttpResponse {
  const m = String.UTF8.encode(method);
  const u = String.UTF8.encode(url);
  const b = String.UTF8.encode(body);
  const h = String.UTF8.encode(headers);
  const out = new ArrayBuffer(capacity);
  const slots = new ArrayBuffer(8);
  store<u32>(ptr(slots) + 4, capacity);
  const response = new HttpResponse();
  response.code = host_http_request(
    ptr(m),
    <u32> m.byteLength,
    ptr(u),
    <u32> u.byteLength,
    ptr(b),
    <u32> b.byteLength,
    ptr(h),
    <u32> h.byteLength,
    ptr(slots),
    ptr(out),
    ptr(slots) + 4,
  );
  response.status = load<u32>(ptr(slots));
  response.length = load<u32>(ptr(slots) + 4);
  const written = response.length < capacity ? response.length : capacity;
  response.body = String.UTF8.decodeUnsafe(ptr(out), written);
  return response;
}
