import { CortexError } from "../runtime/errors.ts";

const PLACEHOLDER = /\{\{([a-zA-Z]+)\}\}/g;

/**
 * Fills the `{{key}}` placeholders of a template. A placeholder without a
 * value is an error rather than text left in a generated file.
 *
 * @example
 * ```ts
 * import { renderTemplate } from "./render_template.ts";
 * renderTemplate("# {{name}}", { name: "my-plugin" }); // "# my-plugin"
 * ```
 */
export function renderTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(PLACEHOLDER, (_match, key: string) => {
    const value = values[key];
    if (value === undefined) {
      throw new CortexError(
        "scaffold_template",
        `the template uses {{${key}}}, but only ${
          Object.keys(values).map((k) => `{{${k}}}`).join(", ")
        } have values`,
      );
    }
    return value;
  });
}
