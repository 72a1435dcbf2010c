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
import { SandboxLoader } from "./worker/mod.ts";
import { createSignatureVerifier } from "../signing/mod.ts";
import { homeLayout } from "../runtime/home.ts";

export { EsmInProcessLoader } from "./esm/mod.ts";
export { McpLoader } from "./mcp/mod.ts";
export { WasmLoader } from "./wasm/mod.ts";
export { ModuleLoader } from "./module/mod.ts";
export { SandboxLoader } from "./worker/mod.ts";

/** Options for {@link defaultLoaders}. */
export interface DefaultLoadersOptions {
  /**
   * The runtime's home folder: sandboxes are refused its database, config,
   * token and trusted keys, and signed plugins are checked against its keys.
   */
  home?: string;
  /**
   * Ports of the runtime's own HTTP API, never reachable from a sandbox. The
   * array is read at every load, so a daemon can add its port once it listens.
   */
  daemonPorts?: number[];
}

/** Every loader this runtime ships, ready for `Runtime.open({ loaders })`. */
export function defaultLoaders(options: DefaultLoadersOptions = {}): RuntimeLoaders {
  return {
    esmTrusted: new EsmInProcessLoader(),
    esmSandboxed: new SandboxLoader({
      home: options.home,
      daemonPorts: options.daemonPorts,
      verifySignature: options.home
        ? createSignatureVerifier(homeLayout(options.home).trustedKeys)
        : undefined,
    }),
    mcp: new McpLoader(),
    wasm: new WasmLoader(),
    module: new ModuleLoader(),
  };
}
