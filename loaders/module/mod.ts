/**
 * The loader for `kind: "module"` plugins: CortexFS external modules over
 * `cortexfs.module.socket/v1`.
 *
 * @example
 * ```ts
 * import { ModuleLoader } from "./mod.ts";
 * console.log(new ModuleLoader().name);
 * ```
 *
 * @module
 */
export { ModuleLoader } from "./module_loader.ts";
export { answerModuleCall, MODULE_HOST_METHODS } from "./module_calls.ts";
