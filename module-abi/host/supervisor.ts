/**
 * Keeps one external module available: starts it, notices when it crashes,
 * hangs or misses a deadline, restarts it with backoff on the next call, and
 * disables it after too many failures in a window.
 *
 * @module
 */
import { CortexError } from "../../runtime/errors.ts";
import type { ModuleMetadata } from "../metadata.ts";
import { startModuleProcess } from "./start_module_process.ts";
import type {
  CallOptions,
  ModuleExitInfo,
  ModuleHandlers,
  ModuleProcess,
  ModuleProcessSpec,
} from "./types.ts";

/** How the supervisor counts failures and spaces restarts. */
export interface SupervisorOptions {
  /** Failures within `windowMs` that disable the module (default 3). */
  readonly maxFailures?: number;
  /** The failure window (default 5 minutes). */
  readonly windowMs?: number;
  /** The first restart delay; it doubles with each recent failure (default 200 ms). */
  readonly backoffMs?: number;
  /** The longest restart delay (default 30 s). */
  readonly maxBackoffMs?: number;
  /**
   * Whether a call that misses its deadline means the module is hung, so it is
   * killed (a failure) and restarted on the next call (default true).
   */
  readonly killOnTimeout?: boolean;
}

/** `idle` before the first start; `crashed` between a failure and the restart; `disabled` for good. */
export type SupervisorState = "idle" | "starting" | "running" | "crashed" | "disabled" | "stopped";

/**
 * A supervised module. Calls start or restart it as needed.
 *
 * @example
 * ```ts ignore
 * import { ModuleSupervisor } from "./supervisor.ts";
 * const supervisor = new ModuleSupervisor({
 *   command: ["python3", "module.py"],
 *   cwd: "examples/modules/echo-tool-py",
 *   socketDir: "/tmp/cortex-modules",
 *   instance: "agent-1",
 * });
 * await supervisor.call("echo", { text: "hi" }); // starts it first
 * console.log(supervisor.state, supervisor.pid, supervisor.restarts);
 * await supervisor.stop();
 * ```
 */
export class ModuleSupervisor {
  #spec: ModuleProcessSpec;
  #handlers: ModuleHandlers;
  #maxFailures: number;
  #windowMs: number;
  #backoffMs: number;
  #maxBackoffMs: number;
  #killOnTimeout: boolean;
  #process: ModuleProcess | undefined;
  #starting: Promise<ModuleProcess> | undefined;
  #state: SupervisorState = "idle";
  #starts = 0;
  #failures: number[] = [];
  #lastExit: ModuleExitInfo | undefined;

  /** Nothing starts until `start` or the first `call`. */
  constructor(spec: ModuleProcessSpec, handlers: ModuleHandlers = {}, options: SupervisorOptions = {}) {
    this.#spec = spec;
    this.#handlers = handlers;
    this.#maxFailures = options.maxFailures ?? 3;
    this.#windowMs = options.windowMs ?? 300_000;
    this.#backoffMs = options.backoffMs ?? 200;
    this.#maxBackoffMs = options.maxBackoffMs ?? 30_000;
    this.#killOnTimeout = options.killOnTimeout ?? true;
  }

  /** The supervisor's state. */
  get state(): SupervisorState {
    return this.#state;
  }

  /** The current process id, while one runs. */
  get pid(): number | undefined {
    return this.#state === "running" ? this.#process?.pid : undefined;
  }

  /** How many times a process was started after the first. */
  get restarts(): number {
    return Math.max(0, this.#starts - 1);
  }

  /** Failures inside the current window. */
  get failures(): number {
    return this.#recentFailures();
  }

  /** How the last process ended, if one has. */
  get lastExit(): ModuleExitInfo | undefined {
    return this.#lastExit;
  }

  /** The metadata of the running process, if one runs. */
  get metadata(): ModuleMetadata | undefined {
    return this.#state === "running" ? this.#process?.metadata : undefined;
  }

  /** Starts the module now instead of on the first call. */
  async start(): Promise<void> {
    await this.#ensure();
  }

  /**
   * Calls `method`, starting or restarting the module first when needed.
   * Rejects with `module_disabled` once the module is disabled.
   */
  async call(method: string, payload: unknown, options: CallOptions = {}): Promise<unknown> {
    const process = await this.#ensure();
    try {
      return await process.call(method, payload, options);
    } catch (error) {
      const hung = this.#killOnTimeout && error instanceof CortexError &&
        error.code === "call_timeout" && process === this.#process;
      if (hung) await process.kill("killed");
      // Wait for the exit to be recorded, so the state a caller reads next is already true.
      if (process.state === "failed") await process.exited;
      throw error;
    }
  }

  /** Stops the module for good (stop, shutdown, kill after grace). */
  async stop(options: { graceMs?: number } = {}): Promise<void> {
    const previous = this.#state;
    this.#state = "stopped";
    if (previous === "starting") await this.#starting?.catch(() => {});
    await this.#process?.stop(options);
  }

  /** Clears the failure count so a disabled module may start again on the next call. */
  enable(): void {
    this.#failures = [];
    if (this.#state === "disabled") this.#state = "crashed";
  }

  #ensure(): Promise<ModuleProcess> {
    if (this.#state === "running" && this.#process) return Promise.resolve(this.#process);
    if (this.#starting) return this.#starting;
    if (this.#state === "disabled") {
      return Promise.reject(
        new CortexError("module_disabled", `the module failed ${this.#maxFailures} times and is disabled`),
      );
    }
    if (this.#state === "stopped") {
      return Promise.reject(new CortexError("module_not_running", "the module was stopped"));
    }
    this.#starting = this.#launch().finally(() => (this.#starting = undefined));
    return this.#starting;
  }

  async #launch(): Promise<ModuleProcess> {
    const failures = this.#recentFailures();
    if (failures > 0) {
      const delay = Math.min(this.#backoffMs * 2 ** (failures - 1), this.#maxBackoffMs);
      const wait = this.#failures[this.#failures.length - 1] + delay - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    this.#state = "starting";
    this.#starts++;
    const process = await startModuleProcess(this.#spec, {
      ...this.#handlers,
      onExit: (info) => this.#onExit(info),
    });
    if (this.#state !== "starting") {
      // Stopped while starting.
      await process.stop();
      throw new CortexError("module_not_running", "the module was stopped");
    }
    this.#process = process;
    this.#state = "running";
    return process;
  }

  #onExit(info: ModuleExitInfo): void {
    this.#lastExit = info;
    if (info.reason !== "stopped") {
      this.#failures.push(Date.now());
      if (this.#state !== "stopped") {
        this.#state = this.#recentFailures() >= this.#maxFailures ? "disabled" : "crashed";
      }
    }
    try {
      this.#handlers.onExit?.(info);
    } catch {
      // The supervisor's own bookkeeping is done; a throwing callback changes nothing.
    }
  }

  #recentFailures(): number {
    const since = Date.now() - this.#windowMs;
    this.#failures = this.#failures.filter((at) => at > since);
    return this.#failures.length;
  }
}
