/**
 * The loaders, one per kind of plugin, all behind the one `Loader`
 * interface of `runtime/loader.ts`.
 *
 * @example
 * ```ts
 * import { defaultLoaders } from "./mod.ts";
 * const loaders = defaultLoaders();
 * console.log(Object.keys(loaders));
 * ```
 *
 * @module
 */
import type { RuntimeLoaders } from "../runtime/runtime.ts";
import { EsmInProcessLoader } from "./esm/mod.ts";
import { McpLoader } from "./mcp/mod.ts";
import { WasmLoader } from "./wasm/mod.ts";
import { ModuleLoader } from "./module/mod.ts";

export { EsmInProcessLoader } from "./esm/mod.ts";
export { McpLoader } from "./mcp/mod.ts";
export { WasmLoader } from "./wasm/mod.ts";
export { ModuleLoader } from "./module/mod.ts";

/** Options for {@link defaultLoaders}. */
export interface DefaultLoadersOptions {
  /** The runtime's home folder (sandboxes keep their sockets there). */
  home?: string;
}

/** Every loader this runtime ships, ready for `Runtime.open({ loaders })`. */
export function defaultLoaders(_options: DefaultLoadersOptions = {}): RuntimeLoaders {
  return {
    esmTrusted: new EsmInProcessLoader(),
    mcp: new McpLoader(),
    wasm: new WasmLoader(),
    module: new ModuleLoader(),
  };
}
