/**
 * Watches one child process: drains its stdout and stderr into log lines,
 * sends signals, kills it after a grace, and tells when it ended.
 *
 * @module
 */
import { pipeLines } from "./log_lines.ts";

// After the child exits, how long its output may take to drain (a grandchild can hold the pipe).
const LOG_DRAIN_MS = 1_000;

/**
 * A spawned child with piped stdout and stderr.
 *
 * @example
 * ```ts ignore
 * import { ChildWatch } from "./child_watch.ts";
 * const child = new Deno.Command("true", { stdout: "piped", stderr: "piped" }).spawn();
 * const watch = new ChildWatch(child, (line, source) => console.log(source, line));
 * const status = await watch.status;
 * await watch.drained;
 * ```
 */
export class ChildWatch {
  /** The exit status; settles when the process has exited. */
  readonly status: Promise<Deno.CommandStatus>;
  /** Settles when the output is drained (at most a second after the exit). */
  readonly drained: Promise<void>;
  #child: Deno.ChildProcess;
  #exited = false;
  #signalled = false;
  #killTimer: ReturnType<typeof setTimeout> | undefined;

  /** Starts draining output at once. */
  constructor(
    child: Deno.ChildProcess,
    onLog: (line: string, source: "stdout" | "stderr") => void,
  ) {
    this.#child = child;
    const drain = new AbortController();
    const logs = Promise.all([
      pipeLines(child.stdout, (line) => onLog(line, "stdout"), { signal: drain.signal }),
      pipeLines(child.stderr, (line) => onLog(line, "stderr"), { signal: drain.signal }),
    ]);
    this.status = child.status.then((status) => {
      this.#exited = true;
      clearTimeout(this.#killTimer);
      return status;
    });
    this.drained = this.status.then(async () => {
      const timer = setTimeout(() => drain.abort(), LOG_DRAIN_MS);
      await logs;
      clearTimeout(timer);
    });
  }

  /** Whether the process has exited. */
  get exited(): boolean {
    return this.#exited;
  }

  /** Whether the host sent the process a signal. */
  get signalled(): boolean {
    return this.#signalled;
  }

  /** Sends `signal` unless the process has exited. */
  signal(signal: Deno.Signal): void {
    if (this.#exited) return;
    try {
      this.#child.kill(signal);
      this.#signalled = true;
    } catch {
      // It exited between the check and the kill.
    }
  }

  /** Sends SIGKILL after `ms` unless the process exits first; a later call replaces the timer. */
  killAfter(ms: number): void {
    if (this.#exited) return;
    clearTimeout(this.#killTimer);
    this.#killTimer = setTimeout(() => this.signal("SIGKILL"), Math.max(0, ms));
  }
}
