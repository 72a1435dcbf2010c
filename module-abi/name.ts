/**
 * The one name rule of the CortexFS module ABI. It applies to a module `id`,
 * a capability `name`, an `instance`, and on the wire to every `request_id`,
 * `method`, event `name` and error `code`.
 *
 * @module
 */

/** The longest name the rule allows, in bytes (names are ASCII, so also characters). */
export const NAME_MAX_BYTES = 64;

// 1 for each ASCII code the rule allows. A table and a loop: about a third of the cost of a
// regular expression on the short names every frame carries.
const ALLOWED = new Uint8Array(128);
for (const char of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") {
  ALLOWED[char.charCodeAt(0)] = 1;
}

/**
 * Whether `value` is a string that follows the name rule: non-empty, at most
 * 64 bytes, only ASCII letters, digits, `.`, `-` and `_`.
 *
 * @example
 * ```ts
 * import { isValidName } from "./name.ts";
 * isValidName("channel.example"); // true
 * isValidName("bad/id"); // false
 * ```
 */
export function isValidName(value: unknown): value is string {
  if (typeof value !== "string") return false;
  const length = value.length;
  if (length === 0 || length > NAME_MAX_BYTES) return false;
  for (let i = 0; i < length; i++) {
    if (!isNameCode(value.charCodeAt(i))) return false;
  }
  return true;
}

function isNameCode(code: number): boolean {
  return code < 128 && ALLOWED[code] === 1;
}
