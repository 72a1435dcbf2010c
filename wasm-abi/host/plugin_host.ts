import { CortexError, toCortexError } from "../../runtime/errors.ts";
import { CallWatchdog } from "./call_watchdog.ts";
import type { WasmCallOptions, WasmPlugin, WasmToolDeclaration, WasmToolResult } from "./types.ts";
import { type CallReply, type SessionSettings, WorkerSession } from "./worker_session.ts";

interface Job {
  name: string;
  args: string;
  options: WasmCallOptions;
  resolve(result: WasmToolResult): void;
  reject(error: CortexError): void;
  /** Takes the job out of the queue if its signal aborts before it runs. */
  dequeue(): void;
}

const CLOSE_GRACE_MS = 1000;

function toResult(reply: CallReply): WasmToolResult {
  if (reply.ok) return { success: true, output: reply.output };
  return {
    success: false,
    output: "",
    error: reply.error ?? "the tool failed",
    code: reply.code ?? "tool_failed",
  };
}

/**
 * A running WASM plugin seen from the main thread: it queues calls (the
 * plugin runs one at a time), puts a deadline on each, and replaces the
 * Worker when a call overruns or is cancelled, so the next call gets a
 * fresh instance. Built by `startWasmPlugin`.
 */
export class WasmPluginHost implements WasmPlugin {
  readonly pluginId: string;
  readonly tools: WasmToolDeclaration[];
  readonly #settings: SessionSettings;
  readonly #callTimeoutMs: number;
  readonly #queue: Job[] = [];
  readonly #watchdog = new CallWatchdog();
  #session: WorkerSession | undefined;
  #spawning: Promise<WorkerSession | CortexError> | undefined;
  #running = false;
  #closed = false;
  #nextId = 1;

  /** Wraps a started session; `tools` come from its capabilities. */
  constructor(
    settings: SessionSettings,
    session: WorkerSession,
    tools: WasmToolDeclaration[],
    callTimeoutMs: number,
  ) {
    this.pluginId = settings.pluginId;
    this.#settings = settings;
    this.#session = session;
    this.tools = tools;
    this.#callTimeoutMs = callTimeoutMs;
  }

  /**
   * Calls a tool. Resolves with `success: false` and a `code` when the plugin
   * fails (tool_failed, trap, out_of_bounds, timeout, ...); rejects with a
   * CortexError for `unknown_tool`, `args_invalid`, `aborted` and `plugin_closed`.
   */
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: WasmCallOptions = {},
  ): Promise<WasmToolResult> {
    if (this.#closed) {
      return Promise.reject(new CortexError("plugin_closed", `the plugin ${this.pluginId} is closed`));
    }
    if (!this.tools.some((t) => t.name === name)) {
      return Promise.reject(
        new CortexError("unknown_tool", `the plugin ${this.pluginId} has no tool named ${name}`),
      );
    }
    if (options.signal?.aborted) return Promise.reject(new CortexError("aborted", "the call was cancelled"));
    let json: string | undefined;
    try {
      if (typeof args === "object" && args !== null && !Array.isArray(args)) json = JSON.stringify(args);
    } catch {
      // reported below
    }
    if (json === undefined) {
      return Promise.reject(
        new CortexError("args_invalid", "the tool's arguments must be an object that can be written as JSON"),
      );
    }
    return new Promise((resolve, reject) => {
      const job: Job = {
        name,
        args: json,
        options,
        resolve,
        reject,
        dequeue: () => {
          const index = this.#queue.indexOf(job);
          if (index < 0) return;
          this.#queue.splice(index, 1);
          reject(new CortexError("aborted", "the call was cancelled before it started"));
        },
      };
      this.#queue.push(job);
      options.signal?.addEventListener("abort", job.dequeue, { once: true });
      this.#pump();
    });
  }

  /** Runs `plugin_destroy` (for up to a second) and stops the Worker. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#watchdog.dispose();
    for (const job of this.#queue.splice(0)) {
      job.reject(new CortexError("plugin_closed", `the plugin ${this.pluginId} was closed`));
    }
    const session = this.#session;
    this.#session = undefined;
    if (session && this.#running) session.terminate();
    else await session?.close(CLOSE_GRACE_MS);
    const spawned = await this.#spawning;
    if (spawned instanceof WorkerSession) spawned.terminate();
  }

  async #pump(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    while (this.#queue.length > 0) {
      const job = this.#queue.shift()!;
      job.options.signal?.removeEventListener("abort", job.dequeue);
      try {
        await this.#run(job);
      } catch (error) {
        job.reject(toCortexError(error));
      }
    }
    this.#running = false;
  }

  async #run(job: Job): Promise<void> {
    // The common case (a live session) skips the extra await.
    const live = this.#session && !this.#session.dead ? this.#session : undefined;
    const session = live ?? await this.#currentSession();
    if (this.#closed) {
      if (session instanceof WorkerSession) session.terminate();
      return job.reject(new CortexError("plugin_closed", `the plugin ${this.pluginId} was closed`));
    }
    if (!(session instanceof WorkerSession)) {
      return job.resolve({
        success: false,
        output: "",
        code: session.code,
        error: `the plugin could not be restarted: ${session.message}`,
      });
    }
    const timeoutMs = job.options.timeoutMs ?? this.#callTimeoutMs;
    const signal = job.options.signal;
    await new Promise<void>((done) => {
      let finished = false;
      const finish = (settle: () => void) => {
        if (finished) return;
        finished = true;
        this.#watchdog.stop();
        signal?.removeEventListener("abort", onAbort);
        settle();
        done();
      };
      this.#watchdog.start(timeoutMs, () =>
        finish(() => {
          this.#replace(session);
          job.resolve({
            success: false,
            output: "",
            code: "timeout",
            error:
              `the tool ${job.name} did not answer within ${timeoutMs} ms; the plugin was stopped and restarted`,
          });
        }));
      const onAbort = () =>
        finish(() => {
          this.#replace(session);
          job.reject(
            new CortexError("aborted", "the call was cancelled; the plugin was stopped and restarted"),
          );
        });
      signal?.addEventListener("abort", onAbort, { once: true });
      session.call(this.#nextId++, job.name, job.args).then((reply) =>
        finish(() => {
          if (reply.broken) this.#replace(session);
          job.resolve(toResult(reply));
        })
      );
    });
  }

  /** Stops a session that overran or broke, and starts its successor right away. */
  #replace(session: WorkerSession): void {
    session.terminate();
    if (this.#session === session) this.#session = undefined;
    if (!this.#closed) this.#spawning = this.#spawn();
  }

  #spawn(): Promise<WorkerSession | CortexError> {
    return WorkerSession.start(this.#settings).then(
      ({ session }) => session,
      (error) => toCortexError(error),
    );
  }

  async #currentSession(): Promise<WorkerSession | CortexError> {
    if (this.#session && !this.#session.dead) return this.#session;
    let next = await (this.#spawning ?? this.#spawn());
    // A restart that failed is tried once more, now that a caller waits for it.
    if (next instanceof CortexError && this.#spawning) next = await this.#spawn();
    this.#spawning = undefined;
    if (next instanceof WorkerSession) this.#session = next;
    return next;
  }
}
