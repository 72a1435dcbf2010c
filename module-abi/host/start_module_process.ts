/**
 * Starts one external module: an owner-only socket, the child process with
 * only the environment it is given, the hello/ready handshake, then init and
 * start, each under its deadline.
 *
 * @module
 */
import { CortexError, toCortexError } from "../../runtime/errors.ts";
import { isValidName } from "../name.ts";
import { HostedModule } from "./hosted_module.ts";
import { listenOwnerOnly } from "./socket.ts";
import {
  DEFAULT_DEADLINES,
  type ModuleHandlers,
  type ModuleProcess,
  type ModuleProcessSpec,
} from "./types.ts";

/** The environment variable that carries the socket path to the child. */
export const SOCKET_ENV = "CORTEXFS_MODULE_SOCKET";

/**
 * Starts the module described by `spec` and resolves once it is running
 * (ready answered, init and start answered with `result`). On any failure the
 * child is killed, `onExit` is called, and the promise rejects with a
 * `CortexError`: `spawn_failed`, `ready_timeout`, `lifecycle_timeout`,
 * `module_exited`, `handshake_failed`, `protocol_violation` or
 * `lifecycle_failed`.
 *
 * @example
 * ```ts ignore
 * import { startModuleProcess } from "./start_module_process.ts";
 * const mod = await startModuleProcess(
 *   {
 *     command: ["python3", "module.py"],
 *     cwd: "examples/modules/echo-tool-py",
 *     socketDir: "/tmp/cortex-modules",
 *     instance: "agent-1",
 *   },
 *   { onLog: (line, source) => console.log(source, line) },
 * );
 * console.log(await mod.call("echo", { text: "hi" }, { timeoutMs: 1000 }));
 * await mod.stop({ graceMs: 2000 });
 * ```
 */
export async function startModuleProcess(
  spec: ModuleProcessSpec,
  handlers: ModuleHandlers = {},
): Promise<ModuleProcess> {
  if (!isValidName(spec.instance)) {
    throw new CortexError(
      "invalid_instance",
      "the instance identifier breaks the name rule",
    );
  }
  if (spec.command.length === 0 || spec.command[0] === "") {
    throw new CortexError("spawn_failed", "the module command is empty");
  }
  const deadlines = { ...DEFAULT_DEADLINES, ...spec.deadlines };
  const socket = await listenOwnerOnly(spec.socketDir, spec.instance);
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(spec.command[0], {
      args: spec.command.slice(1),
      cwd: spec.cwd,
      clearEnv: true,
      env: {
        PATH: Deno.env.get("PATH") ?? "/usr/local/bin:/usr/bin:/bin",
        ...spec.env,
        [SOCKET_ENV]: socket.path,
      },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    socket.close();
    const reason = error instanceof Error ? error.message : String(error);
    const failure = new CortexError(
      "spawn_failed",
      `could not start ${spec.command[0]}: ${reason}`,
    );
    handlers.onExit?.({
      reason: "spawn_failed",
      code: null,
      signal: null,
      killed: false,
      error: failure,
    });
    throw failure;
  }
  const hosted = new HostedModule(child, socket, {
    instance: spec.instance,
    deadlines,
    handlers,
  });
  try {
    await hosted.handshake();
  } catch (error) {
    const failure = toCortexError(error);
    await hosted.abort("start_failed", failure);
    throw failure;
  }
  return hosted;
}
