/**
 * cortex: a Deno plugin runtime. It loads CortexPrism plugins (trusted ESM
 * in process, untrusted ESM in permission-restricted sandboxes, WebAssembly
 * speaking ABI v1, MCP servers), CortexFS external modules over a Unix
 * socket, and runs every tool call through one call path with policy,
 * middleware, events and an audit log, all kept in an embedded SQLite store.
 *
 * @example
 * ```ts ignore
 * import { defaultLoaders, Runtime } from "@cortex/runtime";
 *
 * const runtime = await Runtime.open({ home: "/tmp/cortex", loaders: defaultLoaders() });
 * await runtime.install("./examples/esm/hello", { trust: "trusted" });
 * const result = await runtime.call("hello.greet", { name: "Ada" }, { caller: "person" });
 * console.log(result.output); // "Hello, Ada!"
 * await runtime.close();
 * ```
 *
 * @module
 */

export * from "./runtime/mod.ts";
export * from "./manifest/mod.ts";
export { defaultLoaders, EsmInProcessLoader } from "./loaders/mod.ts";
export type { DefaultLoadersOptions } from "./loaders/mod.ts";
export { globalEventBus } from "./plugin_api/mod.ts";
export type {
  EventPayloads,
  EventType,
  HostApi,
  LifecycleHook,
  MiddlewareCallInfo,
  PluginConfigStore,
  PluginContext,
  PluginLogger,
  PluginModule,
  PluginStateStore,
  PostMiddleware,
  PreMiddleware,
  PreMiddlewareResult,
  Tool,
  ToolCallResult,
  ToolCapability,
  ToolContext,
  ToolDefinition,
  ToolExecutionContext,
  ToolParam,
} from "./plugin_api/mod.ts";
export { EVENT_TYPES } from "./plugin_api/mod.ts";
export { createApp, startDaemon } from "./server/mod.ts";
export type { AppOptions, Daemon, DaemonApp, DaemonOptions } from "./server/mod.ts";
