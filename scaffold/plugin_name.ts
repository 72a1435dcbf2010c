import { PLUGIN_NAME_PATTERN } from "../manifest/schema.ts";
import { CortexError } from "../runtime/errors.ts";

/**
 * Checks a new plugin's name the way the manifest will: kebab-case, 1 to 64
 * characters. Throws a `usage` error saying what was expected and found.
 *
 * @example
 * ```ts
 * import { checkPluginName } from "./plugin_name.ts";
 * checkPluginName("my-plugin"); // passes
 * ```
 */
export function checkPluginName(name: string): void {
  if (name.length > 64) {
    throw new CortexError(
      "usage",
      `a plugin name has at most 64 characters; ${JSON.stringify(name)} has ${name.length}`,
    );
  }
  if (!PLUGIN_NAME_PATTERN.test(name)) {
    throw new CortexError(
      "usage",
      `a plugin name must be kebab-case (lowercase letters, digits and single hyphens, such as my-plugin), not ${
        JSON.stringify(name)
      }`,
    );
  }
}
