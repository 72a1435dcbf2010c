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
 * object property is allowed and skipped, as `JSON.stringify` does.
 *
 * @example
 * ```ts
 * import { findJsonProblem } from "./json_value.ts";
 * findJsonProblem({ a: [1, "x", null] }, 2); // undefined
 * findJsonProblem(Number.NaN, 2); // "number"
 * ```
 */
export function findJsonProblem(value: unknown, depth: number): JsonProblem {
  switch (typeof value) {
    case "string":
      return value.isWellFormed() ? undefined : "string";
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
    for (const item of value) {
      const found = findJsonProblem(item, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return "value";
  for (const key in value) {
    if (!key.isWellFormed()) return "string";
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined) continue;
    const found = findJsonProblem(item, depth + 1);
    if (found) return found;
  }
  return undefined;
}
