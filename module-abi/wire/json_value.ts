/**
 * Checks that a value is JSON the reference decoder reads back unchanged:
 * finite numbers, well-formed UTF-16 strings (no lone surrogates, which
 * serde_json rejects), plain objects and arrays, and at most
 * {@link MAX_FRAME_DEPTH} levels of nesting.
 *
 * @module
 */
import { MAX_FRAME_DEPTH } from "./frame.ts";

/** Why a value is not wire JSON; `undefined` when it is. */
export type JsonProblem = "depth" | "number" | "string" | "value" | undefined;

/**
 * Finds the first reason `value`, sitting at nesting `depth` (the frame object is
 * depth 1, so a payload object is depth 2), is not wire JSON. `undefined` as an
 * object property is allowed and skipped, as `JSON.stringify` does. With
 * `strings: false` strings are not checked for lone surrogates: for a caller
 * that checks the serialized text instead, which is cheaper.
 *
 * @example
 * ```ts
 * import { findJsonProblem } from "./json_value.ts";
 * findJsonProblem({ a: [1, "x", null] }, 2); // undefined
 * findJsonProblem(Number.NaN, 2); // "number"
 * ```
 */
export function findJsonProblem(
  value: unknown,
  depth: number,
  options: { strings?: boolean } = {},
): JsonProblem {
  return walk(value, depth, options.strings ?? true);
}

function walk(value: unknown, depth: number, strings: boolean): JsonProblem {
  switch (typeof value) {
    case "string":
      return !strings || value.isWellFormed() ? undefined : "string";
    case "number":
      return Number.isFinite(value) ? undefined : "number";
    case "boolean":
      return undefined;
    case "object":
      break;
    default:
      return "value";
  }
  if (value === null) return undefined;
  if (depth > MAX_FRAME_DEPTH) return "depth";
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = walk(value[i], depth + 1, strings);
      if (found) return found;
    }
    return undefined;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return "value";
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  for (let i = 0; i < keys.length; i++) {
    if (strings && !keys[i].isWellFormed()) return "string";
    const item = record[keys[i]];
    if (item === undefined) continue;
    const found = walk(item, depth + 1, strings);
    if (found) return found;
  }
  return undefined;
}

// Only `\uD800`-`\uDFFF` escapes can put a surrogate into parsed JSON text: raw UTF-8 cannot
// encode one, and the decoder is fatal. A double overflows only with an exponent of three
// digits, or a mantissa of 309 digits, which, like 128 levels of nesting, needs a text of 256
// characters or more: those texts are walked anyway.
const MAY_HOLD_PROBLEM = /\\u[dD][89a-fA-F]|\d[eE][+-]?\d{3}/;
const WALK_FROM_LENGTH = 2 * 128;

/**
 * Whether the JSON `text` could hold something {@link findJsonProblem} refuses.
 * When this says no, the walk can be skipped: a cheap test on the text instead
 * of a walk over every parsed value.
 *
 * @example
 * ```ts
 * import { mayHoldJsonProblem } from "./json_value.ts";
 * mayHoldJsonProblem('{"a":1}'); // false
 * mayHoldJsonProblem('{"a":1e999}'); // true
 * ```
 */
export function mayHoldJsonProblem(text: string): boolean {
  return text.length >= WALK_FROM_LENGTH || MAY_HOLD_PROBLEM.test(text);
}
