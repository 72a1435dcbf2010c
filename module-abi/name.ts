/**
 * The one name rule of the CortexFS module ABI. It applies to a module `id`,
 * a capability `name`, an `instance`, and on the wire to every `request_id`,
 * `method`, event `name` and error `code`.
 *
 * @module
 */

/** The longest name the rule allows, in bytes (names are ASCII, so also characters). */
export const NAME_MAX_BYTES = 64;

const NAME_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

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
  return typeof value === "string" && NAME_PATTERN.test(value);
}
