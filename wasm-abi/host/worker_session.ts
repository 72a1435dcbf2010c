import { ensureWorkerOptions } from "../../runtime/worker_options.ts";
import { CortexError } from "../../runtime/errors.ts";
import { CORTEX_ERR } from "./abi.ts";
import { answer, createChannel } from "./channel.ts";
import { serveHostRequest } from "./host_requests.ts";
import type { PluginHttpPolicy } from "./http_fetch.ts";
import { type MainMessage, parseWorkerMessage, type WorkerLimits, type WorkerMessage } from "./messages.ts";
import type { WasmPluginServices } from "./types.ts";

/** Everything needed to start the plugin's Worker, again after a restart. */
export interface SessionSettings {
  /** The plugin's id (names the Worker). */
  pluginId: string;
  /** The checked module bytes. */
  wasm: Uint8Array;
  /** Limits the Worker applies. */
  limits: WorkerLimits;
  /** The plugin's services. */
  services: WasmPluginServices;
  /** HTTP policy (the session adds its own abort signal). */
  http: Omit<PluginHttpPolicy, "signal">;
  /** Deadline of start-up. */
  startTimeoutMs: number;
}

/** The Worker's answer to one call. */
export type CallReply = Extract<WorkerMessage, { type: "result" }>;

const WORKER_URL = new URL("./worker.ts", import.meta.url);

/**
 * One Worker running one plugin instance. The main thread serves the
 * Worker's synchronous host requests and answers them on the shared channel.
 * `terminate` stops the Worker at once (a stuck plugin cannot delay it).
 */
export class WorkerSession {
  readonly #worker: Worker;
  readonly #settings: SessionSettings;
  readonly #channel: SharedArrayBuffer;
  readonly #abort = new AbortController();
  readonly #calls = new Map<number, (reply: CallReply) => void>();
  #onStart?: (outcome: string | CortexError) => void;
  #onClosed?: () => void;
  #dead = false;

  private constructor(settings: SessionSettings) {
    this.#settings = settings;
    this.#channel = createChannel(settings.limits.maxTransferBytes);
    // Without the flag, the Worker below would end the whole process (exit 70) instead of throwing.
    ensureWorkerOptions(`WASM plugin ${settings.pluginId}`);
    try {
      this.#worker = new Worker(WORKER_URL, {
        type: "module",
        name: `wasm:${settings.pluginId}`,
        deno: { permissions: "none" },
      });
    } catch (error) {
      throw new CortexError(
        "sandbox_unavailable",
        "WASM plugins run in a Worker without permissions, which needs Deno's --unstable-worker-options flag",
        { cause: error },
      );
    }
    this.#worker.onmessage = (event) => this.#receive(event.data);
    this.#worker.onerror = (event) => {
      event.preventDefault();
      this.#die("worker_failed", "the plugin's Worker stopped unexpectedly");
    };
    this.#worker.onmessageerror = () =>
      this.#die("protocol_error", "the plugin's Worker sent a message that cannot be read");
  }

  /**
   * Starts a Worker, sends it the module and waits for the capabilities JSON.
   * Rejects with the Worker's CortexError, or `start_timeout`.
   */
  static start(settings: SessionSettings): Promise<{ session: WorkerSession; capabilities: string }> {
    let session: WorkerSession;
    try {
      session = new WorkerSession(settings);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        session.#onStart = undefined;
        session.terminate();
        reject(
          new CortexError("start_timeout", `the plugin did not start within ${settings.startTimeoutMs} ms`),
        );
      }, settings.startTimeoutMs);
      session.#onStart = (outcome) => {
        clearTimeout(timer);
        session.#onStart = undefined;
        if (typeof outcome === "string") resolve({ session, capabilities: outcome });
        else {
          session.terminate();
          reject(outcome);
        }
      };
      session.#post({
        type: "init",
        wasm: settings.wasm,
        channel: session.#channel,
        limits: settings.limits,
      });
    });
  }

  /** Whether the Worker is gone. */
  get dead(): boolean {
    return this.#dead;
  }

  /** Runs one tool call in the Worker. Never rejects. */
  call(id: number, name: string, args: string): Promise<CallReply> {
    if (this.#dead) return Promise.resolve(failure(id, "worker_stopped", "the plugin's Worker was stopped"));
    return new Promise((resolve) => {
      this.#calls.set(id, resolve);
      this.#post({ type: "call", id, name, args });
    });
  }

  /** Asks the plugin to run `plugin_destroy`, then stops the Worker (after `timeoutMs` at most). */
  async close(timeoutMs: number): Promise<void> {
    if (this.#dead) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((resolve) => {
      this.#onClosed = resolve;
      timer = setTimeout(resolve, timeoutMs);
      this.#post({ type: "close" });
    });
    clearTimeout(timer);
    this.terminate();
  }

  /** Stops the Worker now; a call in progress gets a `worker_stopped` reply. */
  terminate(): void {
    this.#die("worker_stopped", "the plugin's Worker was stopped");
  }

  #die(code: string, message: string): void {
    if (this.#dead) return;
    this.#dead = true;
    this.#worker.terminate();
    this.#abort.abort();
    this.#onStart?.(new CortexError(code, message));
    this.#onClosed?.();
    for (const [id, resolve] of this.#calls) resolve(failure(id, code, message));
    this.#calls.clear();
  }

  #post(message: MainMessage): void {
    this.#worker.postMessage(message);
  }

  #receive(data: unknown): void {
    if (this.#dead) return;
    const message = parseWorkerMessage(data);
    if (!message) {
      this.#settings.services.log("warn", "the plugin's Worker sent a malformed message; it was stopped");
      return this.#die("protocol_error", "the plugin's Worker sent a malformed message");
    }
    switch (message.type) {
      case "ready":
        return this.#onStart?.(message.capabilities);
      case "init_error":
        return this.#onStart?.(new CortexError(message.code, message.message));
      case "result": {
        const resolve = this.#calls.get(message.id);
        this.#calls.delete(message.id);
        return resolve?.(message);
      }
      case "log":
        return this.#settings.services.log("info", message.message);
      case "host":
        serveHostRequest(message, this.#settings.services, {
          ...this.#settings.http,
          signal: this.#abort.signal,
        })
          .then((reply) => {
            if (!this.#dead) answer(this.#channel, reply, CORTEX_ERR);
          })
          .catch(() => this.#die("internal", "the host could not answer the plugin's request"));
        return;
      case "closed":
        return this.#onClosed?.();
    }
  }
}

function failure(id: number, code: string, error: string): CallReply {
  return { type: "result", id, ok: false, output: "", code, error };
}
