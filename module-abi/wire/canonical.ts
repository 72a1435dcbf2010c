/**
 * The decoder's shortcut for the two frames of every call: a `call` or
 * `result` written exactly as this package's encoder (and the Python SDK)
 * writes it, compact and in wire order. The envelope is matched exactly and
 * only the payload goes through `JSON.parse`, which makes the same frame as
 * the full decode for about three quarters of the cost. Anything that differs
 * in the least returns `undefined`, and the caller decodes the line the
 * general way, which also names the error if there is one.
 *
 * @module
 */
import { NAME_MAX_BYTES } from "../name.ts";
import type { ModuleFrame } from "./frame.ts";
import { findJsonProblem } from "./json_value.ts";

// The envelopes up to the payload, names included: the character class and length are the
// name rule's own (see name.ts), and a name cannot hold the quote that ends it. Sticky, so they
// match at the start only. One irregexp test costs about half the string calls it replaces;
// test() rather than exec(), whose match array cost more than the two searches for the names'
// closing quotes that replace it.
const NAME = `[A-Za-z0-9._-]{1,${NAME_MAX_BYTES}}`;
const CALL_ENVELOPE = new RegExp(
  `\\{"type":"call","request_id":"${NAME}","method":"${NAME}","payload":`,
  "y",
);
const RESULT_ENVELOPE = new RegExp(`\\{"type":"result","request_id":"${NAME}","payload":`, "y");
const TYPE_INITIAL = 9; // the c of {"type":"call", the r of {"type":"result"
const CALL_ID_AT = '{"type":"call","request_id":"'.length;
const RESULT_ID_AT = '{"type":"result","request_id":"'.length;
const METHOD_AFTER_ID = '","method":"'.length;
const QUOTE = '"';
const CALL_INITIAL = 0x63;
const RESULT_INITIAL = 0x72;
const CLOSE_BRACE = 0x7d;

// Returned by payloadAt when the payload is not plain wire JSON.
const UNFIT: unique symbol = Symbol("unfit");

/**
 * The frame `text` holds when it is a canonical `call` or `result`, fully
 * checked; `undefined` otherwise. `mayHoldProblem` is what
 * `mayHoldJsonProblem` says of `text`.
 *
 * Why this is the full check: the envelope is matched exactly, each name by
 * the name rule, and names cannot hold `"` or `\`, so the text between the
 * quotes is the name; and `JSON.parse` accepts the payload slice only when it
 * is exactly one JSON value, so the line is the object
 * `{type, request_id, [method,] payload}` and nothing else.
 *
 * @example
 * ```ts
 * import { decodeCanonical } from "./canonical.ts";
 * decodeCanonical('{"type":"result","request_id":"h1","payload":[1]}', false);
 * // { type: "result", request_id: "h1", payload: [1] }
 * decodeCanonical('{ "type": "result", "request_id": "h1", "payload": [1] }', false); // undefined
 * ```
 */
export function decodeCanonical(text: string, mayHoldProblem: boolean): ModuleFrame | undefined {
  if (text.charCodeAt(text.length - 1) !== CLOSE_BRACE) return undefined;
  const initial = text.charCodeAt(TYPE_INITIAL);
  if (initial === RESULT_INITIAL) {
    RESULT_ENVELOPE.lastIndex = 0;
    if (!RESULT_ENVELOPE.test(text)) return undefined;
    const payload = payloadAt(text, RESULT_ENVELOPE.lastIndex, mayHoldProblem);
    if (payload === UNFIT) return undefined;
    const requestId = text.slice(RESULT_ID_AT, text.indexOf(QUOTE, RESULT_ID_AT));
    return { type: "result", request_id: requestId, payload };
  }
  if (initial === CALL_INITIAL) {
    CALL_ENVELOPE.lastIndex = 0;
    if (!CALL_ENVELOPE.test(text)) return undefined;
    const payload = payloadAt(text, CALL_ENVELOPE.lastIndex, mayHoldProblem);
    if (payload === UNFIT) return undefined;
    const idEnd = text.indexOf(QUOTE, CALL_ID_AT);
    const methodAt = idEnd + METHOD_AFTER_ID;
    const method = known(text.slice(methodAt, text.indexOf(QUOTE, methodAt)));
    return { type: "call", request_id: text.slice(CALL_ID_AT, idEnd), method, payload };
  }
  return undefined;
}

// Method names seen lately, each the one string object handed out for its text. JSON.parse
// interns short strings, a slice is a fresh string; a fresh string used as a property key (the
// SDK looks handlers up by method) sends V8 to its string table in C++ on every call, while a
// string it has met before has a shortcut to the interned copy. A handful of methods is usual;
// the map is emptied if it ever holds many. The last one is checked first, without hashing.
const methods = new Map<string, string>();
const METHODS_KEPT = 256;
let lastMethod = "";

function known(method: string): string {
  if (method === lastMethod) return lastMethod;
  let seen = methods.get(method);
  if (seen === undefined) {
    if (methods.size >= METHODS_KEPT) methods.clear();
    methods.set(method, method);
    seen = method;
  }
  lastMethod = seen;
  return seen;
}

// The payload runs from `start` to just before the closing brace. A payload the general path
// would refuse (not JSON, or JSON the ABI refuses) is left to it, so it reports the error.
function payloadAt(text: string, start: number, mayHoldProblem: boolean): unknown {
  let payload: unknown;
  try {
    payload = JSON.parse(text.slice(start, text.length - 1));
  } catch {
    return UNFIT;
  }
  // The envelope holds only names and fixed text, so only the payload can hold a problem; it
  // sits at depth 2, inside the frame object.
  if (mayHoldProblem && findJsonProblem(payload, 2) !== undefined) return UNFIT;
  return payload;
}
