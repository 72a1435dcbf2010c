/**
 * The loader for `kind: "wasm"` plugins, over the ABI v1 host.
 *
 * @example
 * ```ts
 * import { WasmLoader } from "./mod.ts";
 * console.log(new WasmLoader().name);
 * ```
 *
 * @module
 */
export { WasmLoader } from "./wasm_loader.ts";
