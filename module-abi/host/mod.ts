/**
 * The socket host for external CortexFS modules: starts a module process on a
 * runtime-owned Unix socket, runs the hello/ready handshake and the lifecycle
 * under deadlines, carries calls and events both ways, and supervises restarts.
 * It depends on nothing else in the runtime: callers plug in through
 * {@link ModuleHandlers}.
 *
 * @example
 * ```ts ignore
 * import { ModuleSupervisor } from "./mod.ts";
 * const echo = new ModuleSupervisor(
 *   {
 *     command: ["python3", "module.py"],
 *     cwd: "examples/modules/echo-tool-py",
 *     socketDir: "/run/cortex/modules",
 *     instance: "agent-1",
 *     deadlines: { readyMs: 5_000, callMs: 10_000 },
 *   },
 *   { onEvent: (name, payload) => console.log(name, payload), onLog: console.log },
 * );
 * console.log(await echo.call("reverse", { text: "abc" })); // { text: "cba" }
 * await echo.stop({ graceMs: 2_000 });
 * ```
 *
 * @module
 */

export { SOCKET_ENV, startModuleProcess } from "./start_module_process.ts";
export { ModuleSupervisor, type SupervisorOptions, type SupervisorState } from "./supervisor.ts";
export {
  type CallOptions,
  DEFAULT_DEADLINES,
  type ExitReason,
  type LogSource,
  type ModuleDeadlines,
  type ModuleExitInfo,
  type ModuleHandlers,
  type ModuleProcess,
  type ModuleProcessSpec,
  type ModuleProcessState,
} from "./types.ts";
export { MODULE_OPERATIONS, type ModuleOperation, type ModuleState } from "../lifecycle.ts";
export { MODULE_KINDS, type ModuleCapability, type ModuleKind, type ModuleMetadata } from "../metadata.ts";
export { CortexError } from "../../runtime/errors.ts";
