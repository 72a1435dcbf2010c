/**
 * The small interface between the socket host and whoever runs it: what to
 * start, the deadlines, the callbacks the host makes, and the handle it returns.
 * Nothing here depends on the rest of the runtime.
 *
 * @module
 */
import type { CortexError } from "../../runtime/errors.ts";
import type { ModuleOperation, ModuleState } from "../lifecycle.ts";
import type { ModuleMetadata } from "../metadata.ts";

/** How long the host waits for each step, in milliseconds. */
export interface ModuleDeadlines {
  /** From spawn to the module's `ready` frame (connect, hello, ready). */
  readonly readyMs: number;
  /** For the answer to each `lifecycle` frame. */
  readonly lifecycleMs: number;
  /** For the answer to a call, unless the call sets its own. */
  readonly callMs: number;
  /** From the `stop` frame to killing the process, when stopping. */
  readonly graceMs: number;
}

/** The deadlines used where a spec leaves one out. */
export const DEFAULT_DEADLINES: ModuleDeadlines = Object.freeze({
  readyMs: 5_000,
  lifecycleMs: 5_000,
  callMs: 30_000,
  graceMs: 3_000,
});

/** What to start. */
export interface ModuleProcessSpec {
  /** The argv, such as `["python3", "module.py"]`. */
  readonly command: readonly string[];
  /** The working directory of the child. */
  readonly cwd: string;
  /** A directory the runtime owns; it is made owner-only (0700) and holds the socket (0600). */
  readonly socketDir: string;
  /** The runtime instance identifier sent in `hello` (name rule). */
  readonly instance: string;
  /**
   * The child's whole environment, besides `PATH` (inherited unless given here)
   * and `CORTEXFS_MODULE_SOCKET` (always the host's socket).
   */
  readonly env?: Readonly<Record<string, string>>;
  /** Deadlines; each one left out takes its {@link DEFAULT_DEADLINES} value. */
  readonly deadlines?: Partial<ModuleDeadlines>;
}

/** Where a line of output or a host note came from. */
export type LogSource = "stdout" | "stderr" | "host";

/** Why a module process ended. */
export type ExitReason =
  | "stopped" // the host stopped it
  | "exited" // it exited, or closed its socket, on its own
  | "protocol_violation" // it sent a malformed or out-of-order frame
  | "deadline" // it missed the ready or a lifecycle deadline
  | "start_failed" // it answered init or start with an error
  | "spawn_failed" // it never started
  | "killed"; // the host killed it (a supervisor that found it hung)

/** How a module process ended. */
export interface ModuleExitInfo {
  /** Why it ended. */
  readonly reason: ExitReason;
  /** The exit code, or `null` when a signal ended it or it never started. */
  readonly code: number | null;
  /** The signal that ended it, such as `SIGKILL`, or `null`. */
  readonly signal: string | null;
  /** Whether the host had to kill it. */
  readonly killed: boolean;
  /** The error that ended it, when one did. */
  readonly error?: CortexError;
}

/** The callbacks the host makes. All are optional; none may block the host. */
export interface ModuleHandlers {
  /** The module published an event. */
  onEvent?(name: string, payload: unknown): void;
  /**
   * The module called into the runtime. The returned value is its result; a
   * thrown `CortexError` becomes an error frame with its code and message; any
   * other throw becomes `call_failed` with a generic message. Without this
   * handler every module call is answered `unknown_method`.
   */
  onCall?(method: string, payload: unknown): Promise<unknown> | unknown;
  /** A line the module wrote on stdout or stderr, or a note from the host. */
  onLog?(line: string, source: LogSource): void;
  /** The process ended; called once. */
  onExit?(info: ModuleExitInfo): void;
}

/** Options for one call. */
export interface CallOptions {
  /** The deadline for the answer; defaults to the spec's `callMs`. */
  readonly timeoutMs?: number;
  /** Aborting rejects the call with `call_aborted`. */
  readonly signal?: AbortSignal;
}

/** The host's view of the process: `starting` until init and start answered, then `running`. */
export type ModuleProcessState =
  | "starting"
  | "running"
  | "stopping"
  | "stopped"
  | "failed";

/** A running external module. */
export interface ModuleProcess {
  /** The metadata the module sent in `ready`. */
  readonly metadata: ModuleMetadata;
  /** The child's process id. */
  readonly pid: number;
  /** The process state. */
  readonly state: ModuleProcessState;
  /** The module's lifecycle state as the host drove it. */
  readonly moduleState: ModuleState;
  /** Settles once, when the process has ended and its output is drained. */
  readonly exited: Promise<ModuleExitInfo>;
  /** Calls `method` in the module; resolves with the `result` payload. */
  call(
    method: string,
    payload: unknown,
    options?: CallOptions,
  ): Promise<unknown>;
  /** Sends one lifecycle frame, legal moves only, and waits for its answer. */
  lifecycle(operation: ModuleOperation): Promise<void>;
  /** Sends `stop` then `shutdown`, closes the socket, and kills the process after `graceMs`. */
  stop(options?: { readonly graceMs?: number }): Promise<ModuleExitInfo>;
  /** Kills the process now, reporting `reason`. */
  kill(reason?: ExitReason): Promise<ModuleExitInfo>;
}
