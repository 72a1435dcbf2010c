/**
 * WASM plugins, ABI v1: run a WebAssembly plugin in its own Worker, with
 * synchronous host functions (state, config, HTTP, log, time, random) that
 * block only that Worker. The ABI (exports, imports, memory layout, return
 * codes, capabilities JSON) is described in `wasm-abi/README.md`; the C
 * header is `wasm-abi/c/cortex_plugin.h` and the AssemblyScript kit is
 * `wasm-abi/assemblyscript/`. Spec: `shared/specs/cortexprism-plugins.md`,
 * section "WASM ABI v1".
 *
 * Needs `--unstable-worker-options` (the Worker runs without permissions).
 *
 * @example
 * ```ts
 * import { startWasmPlugin } from "./mod.ts";
 *
 * const state = new Map<string, string>();
 * const plugin = await startWasmPlugin(await Deno.readFile("examples/wasm/echo-c/echo.wasm"), {
 *   pluginId: "wasm-echo-c",
 *   allowNetwork: false,
 *   services: {
 *     getConfig: () => Promise.resolve(undefined),
 *     getState: (key) => Promise.resolve(state.get(key) ?? null),
 *     setState: (key, value) => Promise.resolve(void state.set(key, value)),
 *     log: (level, message) => console.log(level, message),
 *   },
 * });
 * await plugin.callTool("echo", { text: "hi" }); // { success: true, output: "hi" }
 * await plugin.close();
 * ```
 *
 * @module
 */

export { startWasmPlugin, WASM_PLUGIN_DEFAULTS } from "./host/start_wasm_plugin.ts";
export type {
  WasmCallOptions,
  WasmLogLevel,
  WasmPlugin,
  WasmPluginOptions,
  WasmPluginServices,
  WasmToolDeclaration,
  WasmToolParam,
  WasmToolResult,
} from "./host/types.ts";
export { WASM_ERROR_CODES } from "./host/error_codes.ts";
export {
  ABI_VERSION,
  CORTEX_ERR,
  CORTEX_ERR_BUFFER_TOO_SMALL,
  CORTEX_ERR_DENIED,
  CORTEX_HEAP_BASE,
  CORTEX_OK,
  HOST_IMPORTS,
  REQUIRED_EXPORTS,
} from "./host/abi.ts";
export type { Signature, ValType } from "./host/abi.ts";
export { checkModule } from "./host/module_check.ts";
export type { CheckedModule } from "./host/module_check.ts";
export { isPublicAddress, isPublicHost } from "./host/address_policy.ts";
