/**
 * The trusted, in-process ESM loader.
 *
 * @example
 * ```ts
 * import { EsmInProcessLoader } from "./mod.ts";
 * const loader = new EsmInProcessLoader();
 * console.log(loader.name);
 * ```
 *
 * @module
 */
export { EsmInProcessLoader } from "./esm_loader.ts";
