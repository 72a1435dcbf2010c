/**
 * The core every contract shares: the store, the tool registry, the event
 * bus, the middleware chain, policy, the plugin lifecycle and the one call
 * path. See `ARCHITECTURE.md` (docs/architecture.md) for the picture.
 *
 * @example
 * ```ts ignore
 * import { Runtime } from "./mod.ts";
 * const runtime = await Runtime.open({ home: "/tmp/cortex" });
 * console.log(runtime.plugins());
 * await runtime.close();
 * ```
 *
 * @module
 */

export { Runtime } from "./runtime.ts";
export type {
  InstallOptions,
  InstallResult,
  RecordedEvent,
  RuntimeLoaders,
  RuntimeOptions,
} from "./runtime.ts";
export { CallPath } from "./call_path.ts";
export type { CallOptions, CallPathParts, CallResult, OwnerState } from "./call_path.ts";
export { CortexError, ERROR_CODES, HookError, toCortexError } from "./errors.ts";
export { EventBus } from "./event_bus.ts";
export type { AnyEventHandler, EventBusOptions, EventHandler } from "./event_bus.ts";
export { MiddlewareChain } from "./middleware.ts";
export type { MiddlewareEntry, PreOutcome } from "./middleware.ts";
export { qualifyToolName, ToolRegistry } from "./tool_registry.ts";
export type { RawToolResult, ToolCallContext, ToolInvoker, ToolRecord } from "./tool_registry.ts";
export type {
  HookName,
  LoadedPlugin,
  LoadedTool,
  Loader,
  LoadRequest,
  MiddlewareCall,
  PluginServices,
} from "./loader.ts";
export { agentCaller, effectiveCapabilities, isCallerLabel } from "./policy.ts";
export type { CallerLabel } from "./policy.ts";
export { defaultHome, ensureHome, homeLayout } from "./home.ts";
export type { HomeLayout } from "./home.ts";
export { hashFile, hashTree, sha256Hex } from "./hash.ts";
export { checkDependencies, dependencyOrder } from "./dependencies.ts";
export type { InstalledVersion } from "./dependencies.ts";
export { describeRunsIn } from "./installer.ts";
export type { InstallPlan, SignatureVerifier } from "./installer.ts";
export { withDeadline } from "./deadline.ts";
export type { DeadlineOptions } from "./deadline.ts";
export { compileJsonSchemaValidator, compileParamsValidator, paramsToJsonSchema } from "./tool_schema.ts";
export type { ArgsValidator } from "./tool_schema.ts";
export { ConfigFile } from "./config_file.ts";
export type { ConfigDocument } from "./config_file.ts";
export { AuditLog, OverridesTable, PluginsTable, StateTable, Store } from "./store/mod.ts";
export type { AuditLogOptions, Migration, OpenDatabaseOptions, StatusChange } from "./store/mod.ts";
export type { AuditEntry, PermissionOverride, PluginRow, PluginStatus, TrustLevel } from "./store/mod.ts";
export { CORTEX_VERSION } from "./version.ts";
export { ensureWorkerOptions, workerOptionsAvailable } from "./worker_options.ts";
