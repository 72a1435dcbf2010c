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
      return value === null ? undefined : walkContainer(value, depth, strings);
    default:
      return "value";
  }
}

// The items of an array or plain object. Strings, numbers and booleans are checked here, not in
// a call each: that call was a third of the walk over a typical payload.
function walkContainer(value: object, depth: number, strings: boolean): JsonProblem {
  if (depth > MAX_FRAME_DEPTH) return "depth";
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = itemProblem(value[i], depth, strings);
      if (found) return found;
    }
    return undefined;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return "value";
  const record = value as Record<string, unknown>;
  // for-in allocates no key array. On a plain object it also visits enumerable properties
  // added to Object.prototype, which JSON.stringify skips: that can only refuse more, never
  // let through an own property that breaks a rule.
  for (const key in record) {
    if (strings && !key.isWellFormed()) return "string";
    const item = record[key];
    // `undefined` as a property is left out, as JSON.stringify does; in an array it is not JSON.
    if (item === undefined) continue;
    const found = itemProblem(item, depth, strings);
    if (found) return found;
  }
  return undefined;
}

function itemProblem(item: unknown, depth: number, strings: boolean): JsonProblem {
  switch (typeof item) {
    case "string":
      return !strings || item.isWellFormed() ? undefined : "string";
    case "number":
      return Number.isFinite(item) ? undefined : "number";
    case "boolean":
      return undefined;
    case "object":
      return item === null ? undefined : walkContainer(item, depth + 1, strings);
    default:
      return "value";
  }
}

// Only `\uD800`-`\uDFFF` escapes can put a surrogate into parsed JSON text: raw UTF-8 cannot
// encode one, and the decoder is fatal. A double overflows only with an exponent of three
// digits, or a mantissa of 309 digits, which, like 128 levels of nesting, needs a text of 256
// characters or more: those texts are walked anyway.
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
// Spelled out: a third cheaper than `\d[eE][+-]?\d{3}` over a chunk of frames.
const LONG_EXPONENT = /[0-9][eE][-+]?[0-9][0-9][0-9]/;
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
  return text.length >= WALK_FROM_LENGTH || holdsProblemPattern(text);
}

/**
 * The pattern half of {@link mayHoldJsonProblem}: a surrogate escape or an
 * exponent of three digits. No line of a text without one holds either, so a
 * reader tests a chunk of lines once, and then each line only for its length.
 *
 * @example
 * ```ts
 * import { holdsProblemPattern } from "./json_value.ts";
 * holdsProblemPattern('{"a":1}\n{"b":"x"}\n'); // false
 * ```
 */
export function holdsProblemPattern(text: string): boolean {
  // includes() is a plain search, much cheaper than the expression it spares.
  return (text.includes("\\u") && SURROGATE_ESCAPE.test(text)) || LONG_EXPONENT.test(text);
}

/**
 * {@link mayHoldJsonProblem} for one line of a text that {@link holdsProblemPattern}
 * said `pattern` about.
 *
 * @example
 * ```ts
 * import { lineMayHoldJsonProblem } from "./json_value.ts";
 * lineMayHoldJsonProblem('{"a":1}', false); // false
 * ```
 */
export function lineMayHoldJsonProblem(line: string, pattern: boolean): boolean {
  return pattern ? mayHoldJsonProblem(line) : line.length >= WALK_FROM_LENGTH;
}
