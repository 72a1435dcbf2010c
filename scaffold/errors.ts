/** The error codes `scaffold/` adds to the runtime's (`runtime/errors.ts`), with what each means. */
export const SCAFFOLD_ERROR_CODES: Readonly<Record<string, string>> = {
  scaffold_exists: "the folder the new plugin would go in already exists; nothing was written",
  scaffold_template: "a template names a placeholder the generator has no value for (a bug in the templates)",
};
