/**
 * One external module process as the host sees it: the connection, the
 * handshake, the lifecycle it drives, calls both ways, and how it ends.
 * Built by `startModuleProcess`; not exported from the package.
 *
 * @module
 */
import { CortexError } from "../../runtime/errors.ts";
import { ModuleLifecycleError } from "../errors.ts";
import { type ModuleOperation, type ModuleState, nextState } from "../lifecycle.ts";
import type { ModuleMetadata } from "../metadata.ts";
import { type CallFrame, type ModuleFrame, WIRE_ABI } from "../wire/frame.ts";
import { answerCall, errorFrameFor } from "./answer_call.ts";
import { FrameChannel } from "./frame_channel.ts";
import { ChildWatch } from "./child_watch.ts";
import { withDeadline } from "./deadline.ts";
import { PendingRequests } from "../pending.ts";
import type { OwnedSocket } from "./socket.ts";
import type {
  CallOptions,
  ExitReason,
  ModuleDeadlines,
  ModuleExitInfo,
  ModuleHandlers,
  ModuleProcess,
  ModuleProcessState,
} from "./types.ts";

// How long an error frame may take to leave before the connection closes anyway.
const ERROR_FLUSH_MS = 500;

/** The host side of one module process. */
export class HostedModule implements ModuleProcess {
  readonly pid: number;
  readonly exited: Promise<ModuleExitInfo>;
  #child: ChildWatch;
  #socket: OwnedSocket;
  #instance: string;
  #deadlines: ModuleDeadlines;
  #handlers: ModuleHandlers;
  #channel: FrameChannel | undefined;
  #pending = new PendingRequests("h");
  #metadata: ModuleMetadata | undefined;
  #state: ModuleProcessState = "starting";
  #moduleState: ModuleState = "registered";
  #ready = Promise.withResolvers<ModuleMetadata>();
  #endReason: ExitReason | undefined;
  #endError: CortexError | undefined;

  /** Takes ownership of a spawned child and the listening socket it will connect to. */
  constructor(
    child: Deno.ChildProcess,
    socket: OwnedSocket,
    settings: {
      instance: string;
      deadlines: ModuleDeadlines;
      handlers: ModuleHandlers;
    },
  ) {
    this.#child = new ChildWatch(child, (line, source) => this.#log(line, source));
    this.pid = child.pid;
    this.#socket = socket;
    this.#instance = settings.instance;
    this.#deadlines = settings.deadlines;
    this.#handlers = settings.handlers;
    this.#ready.promise.catch(() => {});
    this.exited = this.#watchExit();
  }

  get metadata(): ModuleMetadata {
    if (!this.#metadata) throw new CortexError("module_not_running", "the module is not ready");
    return this.#metadata;
  }

  get state(): ModuleProcessState {
    return this.#state;
  }

  get moduleState(): ModuleState {
    return this.#moduleState;
  }

  /** Accepts the one connection, sends hello, waits for ready, then drives init and start. */
  async handshake(): Promise<void> {
    const readyBy = Date.now() + this.#deadlines.readyMs;
    const readyLate = () =>
      new CortexError(
        "ready_timeout",
        `the module did not answer hello within ${this.#deadlines.readyMs} ms`,
      );
    try {
      let conn: Deno.UnixConn;
      try {
        conn = await this.#within(this.#socket.listener.accept(), readyBy, readyLate);
      } finally {
        this.#socket.close();
      }
      this.#channel = new FrameChannel(conn, {
        onFrame: (frame) => this.#onFrame(frame),
        onMalformed: (error) => this.#violation(error),
        onClose: () => this.#fail("exited", closedError()),
      });
      this.#channel.send({ type: "hello", abi: WIRE_ABI, instance: this.#instance });
      this.#metadata = await this.#within(this.#ready.promise, readyBy, readyLate);
      await this.lifecycle("init");
      await this.lifecycle("start");
      this.#state = "running";
    } catch (error) {
      throw this.#endError ?? error;
    }
  }

  call(method: string, payload: unknown, options?: CallOptions): Promise<unknown> {
    const channel = this.#channel;
    if (this.#state !== "running" || this.#moduleState !== "running" || !channel || channel.closed) {
      return Promise.reject(new CortexError("module_not_running", `the module is ${this.#stateLabel()}`));
    }
    const { id, answer } = this.#pending.open("call " + method, {
      timeoutMs: options?.timeoutMs ?? this.#deadlines.callMs,
      signal: options?.signal,
    });
    try {
      channel.send({ type: "call", request_id: id, method, payload });
    } catch (error) {
      this.#pending.reject(id, error as Error);
    }
    return answer;
  }

  lifecycle(operation: ModuleOperation): Promise<void> {
    return this.#lifecycle(operation, this.#deadlines.lifecycleMs);
  }

  async stop(options: { graceMs?: number } = {}): Promise<ModuleExitInfo> {
    if (this.#endReason) return this.exited;
    const graceMs = options.graceMs ?? this.#deadlines.graceMs;
    const deadline = Date.now() + graceMs;
    this.#endReason = "stopped";
    this.#state = "stopping";
    for (const operation of ["stop", "shutdown"] as const) {
      if (nextState(this.#moduleState, operation) === undefined) continue;
      const left = Math.max(1, Math.min(this.#deadlines.lifecycleMs, deadline - Date.now()));
      try {
        await this.#lifecycle(operation, left, true);
      } catch (error) {
        this.#note(`${operation} failed while stopping: ${(error as Error).message}`);
        break;
      }
    }
    await this.#channel?.drain(ERROR_FLUSH_MS);
    this.#channel?.close();
    this.#pending.failAll(closedError());
    this.#child.killAfter(deadline - Date.now());
    return this.exited;
  }

  kill(reason: ExitReason = "killed"): Promise<ModuleExitInfo> {
    return this.abort(reason, new CortexError("module_exited", "the host killed the module"));
  }

  /** Kills the process now, recording `reason` and `error` as why it ended. */
  abort(reason: ExitReason, error: CortexError): Promise<ModuleExitInfo> {
    this.#end(reason, error);
    this.#channel?.close();
    this.#socket.close();
    this.#child.signal("SIGKILL");
    return this.exited;
  }

  async #lifecycle(operation: ModuleOperation, timeoutMs: number, stopping = false): Promise<void> {
    const next = nextState(this.#moduleState, operation);
    if (next === undefined) {
      throw new CortexError("invalid_state", `cannot ${operation} the module: it is ${this.#moduleState}`);
    }
    const channel = this.#channel;
    if (!channel || channel.closed || (this.#endReason && !stopping)) {
      throw new CortexError("module_not_running", `the module is ${this.#stateLabel()}`);
    }
    const { id, answer } = this.#pending.open(`lifecycle ${operation}`, {
      timeoutMs,
      timeoutCode: "lifecycle_timeout",
    });
    channel.send({ type: "lifecycle", request_id: id, operation });
    try {
      await answer;
    } catch (error) {
      if (error instanceof CortexError && error.code === "lifecycle_timeout" && !stopping) {
        this.#fail("deadline", error);
      }
      if (this.#endError && error === this.#endError) throw error;
      throw new ModuleLifecycleError(this.#metadata?.id ?? "unknown", operation, error);
    }
    this.#moduleState = next;
  }

  #onFrame(frame: ModuleFrame): void {
    if (!this.#metadata && frame.type !== "ready") {
      if (frame.type === "error" && frame.request_id === undefined) {
        const refused = new CortexError("handshake_failed", `the module refused hello: ${frame.code}`);
        return this.#fail("protocol_violation", refused);
      }
      return this.#violation(violation(`expected ready, got ${frame.type}`));
    }
    switch (frame.type) {
      case "ready":
        if (this.#metadata) this.#violation(violation("ready sent twice"));
        else this.#ready.resolve(frame.metadata);
        return;
      case "result":
        return this.#answered(frame.request_id, this.#pending.resolve(frame.request_id, frame.payload));
      case "error":
        if (frame.request_id === undefined) {
          this.#note(`the module reported ${frame.code}: ${frame.message}`);
          return;
        }
        return this.#answered(
          frame.request_id,
          this.#pending.reject(frame.request_id, new CortexError(frame.code, frame.message)),
        );
      case "event":
        try {
          this.#handlers.onEvent?.(frame.name, frame.payload);
        } catch (error) {
          this.#note(`the event handler threw: ${(error as Error).message}`);
        }
        return;
      case "call":
        this.#answerCall(frame);
        return;
      default:
        this.#violation(violation(`a module may not send ${frame.type}`));
    }
  }

  #answered(id: string, settled: "settled" | "late" | "unknown"): void {
    if (settled === "late") this.#note(`a late answer to ${id} was dropped`);
    if (settled === "unknown") {
      this.#violation(violation(`an answer to unknown request ${id}`));
    }
  }

  async #answerCall(frame: CallFrame): Promise<void> {
    const reply = await answerCall(this.#handlers.onCall, frame);
    try {
      this.#channel?.send(reply);
    } catch {
      const unfit = new CortexError("call_failed", "the host's result is not wire JSON");
      this.#channel?.send(errorFrameFor(frame.request_id, unfit));
    }
  }

  #violation(error: CortexError): void {
    if (this.#endReason) return;
    const channel = this.#channel;
    channel?.send(errorFrameFor(undefined, error));
    const reason = new CortexError("protocol_violation", `the module broke the protocol: ${error.message}`, {
      cause: error,
    });
    this.#end("protocol_violation", reason);
    // The error frame gets a moment to leave before the connection closes.
    channel?.drain(ERROR_FLUSH_MS).finally(() => this.#shutDown());
  }

  #fail(reason: ExitReason, error: CortexError): void {
    if (this.#endReason) return;
    this.#end(reason, error);
    this.#shutDown();
  }

  #end(reason: ExitReason, error: CortexError): void {
    if (this.#endReason) return;
    this.#endReason = reason;
    this.#endError = error;
    this.#state = "failed";
    this.#ready.reject(error);
    this.#pending.failAll(error);
  }

  // A module that missed a deadline already had its time, so it is killed at once; any other
  // failure closes the connection, which a well-behaved module takes as its cue to exit.
  #shutDown(): void {
    this.#channel?.close();
    this.#socket.close();
    if (this.#endReason === "deadline") this.#child.signal("SIGKILL");
    else this.#child.killAfter(this.#deadlines.graceMs);
  }

  #within<T>(promise: Promise<T>, by: number, late: () => CortexError): Promise<T> {
    return withDeadline(promise, by - Date.now(), () => {
      const error = late();
      this.#fail("deadline", error);
      return error;
    });
  }

  async #watchExit(): Promise<ModuleExitInfo> {
    const status = await this.#child.status;
    const how = status.signal ? `signal ${status.signal}` : `code ${status.code}`;
    const exited = new CortexError("module_exited", `the module exited with ${how}`);
    this.#fail("exited", exited);
    if (this.#state === "stopping") this.#state = "stopped";
    this.#channel?.close();
    this.#socket.close();
    this.#pending.failAll(exited);
    await this.#child.drained;
    await this.#channel?.done;
    const info: ModuleExitInfo = {
      reason: this.#endReason ?? "exited",
      code: status.signal ? null : status.code,
      signal: status.signal,
      killed: this.#child.signalled && status.signal !== null,
      ...(this.#endReason === "stopped" ? {} : { error: this.#endError }),
    };
    try {
      this.#handlers.onExit?.(info);
    } catch {
      // The exit is reported; a throwing callback changes nothing.
    }
    return info;
  }

  #note(line: string): void {
    this.#log(line, "host");
  }

  #log(line: string, source: "stdout" | "stderr" | "host"): void {
    try {
      this.#handlers.onLog?.(line, source);
    } catch {
      // Logging must never break the host.
    }
  }

  #stateLabel(): string {
    return this.#state === "running" ? this.#moduleState : this.#state;
  }
}

function violation(message: string): CortexError {
  return new CortexError("protocol_violation", message);
}

function closedError(): CortexError {
  return new CortexError(
    "connection_closed",
    "the module closed the connection",
  );
}
