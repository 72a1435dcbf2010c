/**
 * The TypeScript SDK for module authors: connect to the host's socket, answer
 * `hello` with `ready`, follow the lifecycle the host drives, answer calls,
 * publish events and call into the runtime. The same module runs on Deno and on
 * Node (bundled, or with Node's type stripping): see `client_transport.ts`.
 *
 * @example
 * ```ts ignore
 * import { runModule } from "./client.ts";
 * const mod = await runModule({
 *   metadata: {
 *     id: "tool.echo",
 *     version: "1.0.0",
 *     kind: "tool",
 *     capabilities: [{ name: "echo", description: "returns its input" }],
 *   },
 *   handlers: { echo: (payload) => payload },
 * });
 * mod.emit("started", null);
 * await mod.closed; // the host sent shutdown, or closed the socket
 * ```
 *
 * @module
 */
import process from "node:process";
import { CortexError } from "../runtime/errors.ts";
import { type ModuleOperation, type ModuleState, nextState } from "./lifecycle.ts";
import { type ModuleMetadata, validateMetadata } from "./metadata.ts";
import { isValidName } from "./name.ts";
import { connectUnix, type Transport } from "./client_transport.ts";
import { PendingRequests } from "./pending.ts";
import { encodeFrameText } from "./wire/encode.ts";
import type { ErrorFrame, ModuleFrame } from "./wire/frame.ts";
import { FrameReader, type FrameSink } from "./wire/reader.ts";

/** Thrown by a handler, its `code` and message reach the host; see `runModule`. */
export { CortexError };
export { MODULE_OPERATIONS, type ModuleOperation, type ModuleState } from "./lifecycle.ts";
export { MODULE_KINDS, type ModuleCapability, type ModuleKind, type ModuleMetadata } from "./metadata.ts";

/** What a call handler gets besides the payload. */
export interface ModuleCallContext {
  /** The runtime instance from `hello`. */
  readonly instance: string;
  /** Publishes an event to the host. */
  emit(name: string, payload: unknown): void;
  /** Calls a method of the runtime. */
  callHost(
    method: string,
    payload: unknown,
    options?: { timeoutMs?: number },
  ): Promise<unknown>;
}

/** A method the module offers; its return value is the result payload (`undefined` sends `null`). */
export type ModuleMethod = (
  payload: unknown,
  ctx: ModuleCallContext,
) => unknown;

/** What a module declares and how it behaves. */
export interface RunModuleOptions {
  /** The module's identity, sent in `ready`. */
  readonly metadata: ModuleMetadata;
  /** The methods the host may call, by name. */
  readonly handlers: Readonly<Record<string, ModuleMethod>>;
  /** Runs on each lifecycle frame; a throw answers it with an error and keeps the state. */
  readonly onLifecycle?: (
    operation: ModuleOperation,
    ctx: ModuleCallContext,
  ) => unknown;
  /** Gets host error frames that answer nothing; defaults to writing them to stderr. */
  readonly onHostError?: (code: string, message: string) => void;
  /** The socket path; defaults to `CORTEXFS_MODULE_SOCKET`. */
  readonly socketPath?: string;
  /** The deadline for `callHost` answers (default 30 s). */
  readonly callTimeoutMs?: number;
}

/** A connected module. */
export interface ModuleClient extends ModuleCallContext {
  /** The lifecycle state the host has driven the module to. */
  readonly state: ModuleState;
  /** Settles when the connection is closed, by either side. */
  readonly closed: Promise<void>;
  /** Closes the connection. */
  close(): void;
}

const MAX_MESSAGE = 1024;

/**
 * Connects, waits for `hello`, answers `ready`, and resolves with the client.
 * From then on the SDK answers lifecycle frames and calls by itself; after it
 * answers `shutdown` it closes the connection, so a module with nothing else
 * pending ends on its own.
 */
export function runModule(options: RunModuleOptions): Promise<ModuleClient> {
  const metadata = validateMetadata(options.metadata);
  const path = options.socketPath ?? process.env.CORTEXFS_MODULE_SOCKET;
  if (!path) {
    return Promise.reject(
      new CortexError(
        "usage",
        "CORTEXFS_MODULE_SOCKET is not set; start this module from a host",
      ),
    );
  }
  return new Promise((resolve, reject) => {
    const session = new ClientSession(options, metadata, path);
    session.hello.then(() => resolve(session), reject);
  });
}

class ClientSession implements ModuleClient {
  readonly closed: Promise<void>;
  readonly hello: Promise<void>;
  #options: RunModuleOptions;
  #metadata: ModuleMetadata;
  #transport: Transport;
  #reader = new FrameReader();
  #pending = new PendingRequests("m");
  #instance: string | undefined;
  #state: ModuleState = "registered";
  #isClosed = false;
  #lifecycleChain: Promise<void> = Promise.resolve();
  #helloResolvers = deferred();
  #closedResolvers = deferred();

  constructor(options: RunModuleOptions, metadata: ModuleMetadata, path: string) {
    this.#options = options;
    this.#metadata = metadata;
    this.hello = this.#helloResolvers.promise;
    this.closed = this.#closedResolvers.promise;
    this.#transport = connectUnix(path, {
      onData: (chunk) => this.#onData(chunk),
      onClose: (error) => this.#close(error),
    });
  }

  get instance(): string {
    return this.#instance ?? "";
  }

  get state(): ModuleState {
    return this.#state;
  }

  emit(name: string, payload: unknown): void {
    this.#send({ type: "event", name, payload });
  }

  callHost(
    method: string,
    payload: unknown,
    options: { timeoutMs?: number } = {},
  ) {
    if (this.#isClosed) {
      return Promise.reject(
        new CortexError("connection_closed", "the connection is closed"),
      );
    }
    const { id, answer } = this.#pending.open(`host call ${method}`, {
      timeoutMs: options.timeoutMs ?? this.#options.callTimeoutMs ?? 30_000,
    });
    try {
      this.#send({ type: "call", request_id: id, method, payload });
    } catch (error) {
      this.#pending.reject(id, error as Error);
    }
    return answer;
  }

  close(): void {
    this.#close();
  }

  #onData(chunk: Uint8Array): void {
    this.#reader.read(chunk, this.#sink);
    // The answers to this chunk leave now, before the transport waits for more bytes; answers
    // that come later (from async handlers) leave at the end of their tick.
    this.#transport.flush();
  }

  // The first malformed frame closes the connection; nothing after it is handled.
  #sink: FrameSink = {
    onFrame: (frame) => {
      if (!this.#isClosed) this.#onFrame(frame);
    },
    onMalformed: (error) => {
      if (!this.#isClosed) this.#violation(error.code, error.message);
    },
  };

  #onFrame(frame: ModuleFrame): void {
    if (this.#instance === undefined) {
      if (frame.type !== "hello") {
        return this.#violation("protocol_violation", "expected hello");
      }
      this.#instance = frame.instance;
      this.#send({ type: "ready", metadata: this.#metadata });
      this.#helloResolvers.resolve();
      return;
    }
    switch (frame.type) {
      case "lifecycle": {
        // One at a time, in arrival order: each operation needs the state the previous one left.
        const { request_id, operation } = frame;
        this.#lifecycleChain = this.#lifecycleChain.then(() => this.#lifecycle(request_id, operation));
        return;
      }
      case "call":
        return this.#call(frame.request_id, frame.method, frame.payload);
      case "result":
        return this.#answered(this.#pending.resolve(frame.request_id, frame.payload));
      case "error":
        if (frame.request_id === undefined) {
          const report = this.#options.onHostError ??
            ((code: string, message: string) => console.error(`host error ${code}: ${message}`));
          return report(frame.code, frame.message);
        }
        return this.#answered(
          this.#pending.reject(frame.request_id, new CortexError(frame.code, frame.message)),
        );
      default:
        return this.#violation(
          "protocol_violation",
          `a host may not send ${frame.type}`,
        );
    }
  }

  async #lifecycle(
    requestId: string,
    operation: ModuleOperation,
  ): Promise<void> {
    const next = nextState(this.#state, operation);
    if (next === undefined) {
      const message = `cannot ${operation}: the module is ${this.#state}`;
      return this.#reply(
        errorFor(requestId, new CortexError("invalid_state", message)),
      );
    }
    try {
      await this.#options.onLifecycle?.(operation, this);
    } catch (error) {
      return this.#reply(errorFor(requestId, error));
    }
    this.#state = next;
    this.#reply({ type: "result", request_id: requestId, payload: null });
    // The transport writes the answer before it closes.
    if (next === "shutdown") this.#close();
  }

  // Not async: a handler that returns a plain value is answered in the same turn.
  #call(requestId: string, method: string, payload: unknown): void {
    const handler = Object.hasOwn(this.#options.handlers, method)
      ? this.#options.handlers[method]
      : undefined;
    if (!handler) {
      const error = new CortexError("unknown_method", `no method ${method}`);
      return this.#reply(errorFor(requestId, error));
    }
    if (this.#state !== "running") {
      const error = new CortexError("module_not_running", `the module is ${this.#state}`);
      return this.#reply(errorFor(requestId, error));
    }
    let result: unknown;
    try {
      result = handler(payload, this);
    } catch (error) {
      return this.#reply(errorFor(requestId, error));
    }
    if (result instanceof Promise) {
      result.then(
        (value) => this.#result(requestId, value),
        (error) => this.#reply(errorFor(requestId, error)),
      );
    } else this.#result(requestId, result);
  }

  #result(requestId: string, result: unknown): void {
    this.#reply({ type: "result", request_id: requestId, payload: result ?? null });
  }

  #answered(settled: "settled" | "late" | "unknown"): void {
    if (settled === "unknown") {
      this.#violation("protocol_violation", "an answer to an unknown request");
    }
  }

  // Sends an answer; a result that is not wire JSON becomes an error instead of a broken frame.
  #reply(frame: ModuleFrame): void {
    try {
      this.#send(frame);
    } catch (error) {
      const requestId = "request_id" in frame ? frame.request_id : undefined;
      this.#send(errorFor(requestId, error));
    }
  }

  // Frames sent in the same tick leave in one write (see WriteQueue).
  #send(frame: ModuleFrame): void {
    const text = encodeFrameText(frame);
    if (!this.#isClosed) this.#transport.write(text);
  }

  // The error frame is written before the transport closes, which waits for the write.
  #violation(code: string, message: string): void {
    this.#send({ type: "error", code, message });
    this.#close();
  }

  #close(error?: Error): void {
    if (this.#isClosed) return;
    this.#isClosed = true;
    const reason = new CortexError(
      "connection_closed",
      "the connection to the host closed",
    );
    this.#pending.failAll(reason);
    this.#helloResolvers.reject(error ?? reason);
    this.#transport.close();
    this.#closedResolvers.resolve();
  }
}

// Only an error with a stable code says why; any other error's message stays in the module,
// so a stray exception never carries a secret to the host.
function errorFor(requestId: string | undefined, error: unknown): ErrorFrame {
  const base = requestId === undefined ? {} : { request_id: requestId };
  const code = (error as { code?: unknown } | null)?.code;
  if (error instanceof Error && isValidName(code)) {
    const message = error.message.replaceAll("\0", "").slice(0, MAX_MESSAGE).toWellFormed();
    return { type: "error", ...base, code, message: message || code };
  }
  return { type: "error", ...base, code: "handler_failed", message: "the handler failed" };
}

// Promise.withResolvers is missing on Node 20, which this file still runs on.
function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: Error) => void } {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}
