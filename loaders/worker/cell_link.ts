/**
 * The host's end of one plugin Worker ("cell") in a sandbox process, over
 * the cell's own socket: everything read from it is this plugin's, and is
 * checked against `cellMessageSchema`. A reply is matched to a call this
 * host made to this cell, by id; anything else (a wrong id, an unknown
 * shape, an extra key such as another plugin's name, a line that is not
 * JSON or is too long) is dropped and logged. A cell that keeps sending
 * such messages, or sends more than its credit (one message per message the
 * host sent it) plus a steady allowance, is stopped.
 *
 * @module
 */
import { CortexError } from "../../runtime/errors.ts";
import { type ByteReader, LineWriter, readLines } from "./_lines.ts";
import type { CellEvents, ReadyReport } from "./cell_events.ts";
import { FloodMeter } from "./flood_meter.ts";
import { cellMessageSchema, firstIssue, parseLine } from "./messages.ts";
import type { CellTarget, Guilt, SandboxProcess } from "./sandbox_process.ts";

export type { CellEvents, ReadyReport };

function safeHello(text: string): { t?: unknown; token?: unknown } | undefined {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Malformed or forged messages tolerated per window before the cell is stopped. */
const INVALID_LIMIT = 200;
const INVALID_WINDOW_MS = 10_000;

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** The host's end of one cell. */
export class CellLink implements CellTarget {
  /** The plugin's name. */
  readonly name: string;
  #events: CellEvents;
  #process?: SandboxProcess;
  #cell = 0;
  #lastId = 0;
  #pending = new Map<number, Pending>();
  #pings = new Map<number, (alive: boolean) => void>();
  #start?: Pending;
  #ended = false;
  #guilty: Guilt = false;
  #invalid = 0;
  #invalidSince = 0;
  #maxChars: number;
  #conn?: Deno.Conn;
  #out?: LineWriter;
  #meter = new FloodMeter();
  #token = "";
  #greeted = false;

  /**
   * @param name The plugin's name.
   * @param events Its supervisor.
   * @param maxChars The message cap, for log lines.
   */
  constructor(name: string, events: CellEvents, maxChars: number) {
    this.name = name;
    this.#events = events;
    this.#maxChars = maxChars;
  }

  /** The process it runs in. */
  get process(): SandboxProcess {
    if (!this.#process) throw new CortexError("internal", "the cell is not placed in a process");
    return this.#process;
  }

  /** Its id in the process. */
  get cell(): number {
    return this.#cell;
  }

  /** Whether it has ended. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Whether it ended through its own fault. */
  get guilty(): Guilt {
    return this.#guilty;
  }

  /** Places the cell in `process` (attach before any other await). */
  bind(process: SandboxProcess): void {
    this.#process = process;
    this.#cell = process.attach(this);
  }

  /** Starts the Worker, waits for it to connect, and resolves with what the plugin exports. */
  async start(
    permissions: Deno.PermissionOptionsObject,
    init: Record<string, unknown>,
  ): Promise<ReadyReport> {
    const ready = new Promise<ReadyReport>((resolve, reject) => {
      this.#start = { resolve: resolve as (v: unknown) => void, reject };
    });
    ready.catch(() => {});
    let conn: Deno.Conn;
    // Only the Worker started for this spawn learns the token; it must present it first.
    this.#token = crypto.randomUUID();
    try {
      conn = await this.process.spawn(this.#cell, permissions, { ...init, token: this.#token });
    } catch (error) {
      // A process that is dying says itself who was at fault; otherwise this Worker never came up.
      if (!this.process.alive) await this.process.exited;
      this.#end((error as Error).message, true);
      return await ready;
    }
    if (this.#ended) {
      conn.close();
      return await ready;
    }
    this.#conn = conn;
    this.#out = new LineWriter(conn);
    readLines(conn as ByteReader, (line) => this.#onLine(line), {
      maxChars: this.#maxChars,
      onOversized: (size, head) => this.#oversized(size, head),
    }).then(() => this.#onEnd());
    return await ready;
  }

  /** Runs one call in the cell. The signal's abort sends a cancel and rejects with its reason. */
  call(
    body: Record<string, unknown>,
    signal?: AbortSignal,
    onAbort?: (reason: unknown) => void,
  ): Promise<unknown> {
    if (this.#ended) {
      return Promise.reject(new CortexError("sandbox_crashed", `plugin ${this.name} is not running`));
    }
    const id = ++this.#lastId;
    return new Promise((resolve, reject) => {
      const abort = () => {
        if (!this.#pending.delete(id)) return;
        this.#trySend({ t: "cancel", id });
        reject(signal!.reason);
        onAbort?.(signal!.reason);
      };
      this.#pending.set(id, {
        resolve: (value) => {
          signal?.removeEventListener("abort", abort);
          resolve(value);
        },
        reject: (error) => {
          signal?.removeEventListener("abort", abort);
          reject(error);
        },
      });
      if (signal?.aborted) return abort();
      signal?.addEventListener("abort", abort, { once: true });
      try {
        this.#send({ t: "call", id, ...body });
      } catch (error) {
        this.#pending.get(id)?.reject(error as Error);
        this.#pending.delete(id);
      }
    });
  }

  /** Sends a message that needs no answer; false when it could not be sent. */
  notify(message: Record<string, unknown>): boolean {
    return !this.#ended && this.#trySend(message);
  }

  /** Resolves true when the cell answers a ping within `graceMs`, false otherwise. */
  ping(graceMs: number): Promise<boolean> {
    if (!this.connected) return Promise.resolve(false);
    const id = ++this.#lastId;
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(false), graceMs);
      const done = (alive: boolean) => {
        clearTimeout(timer);
        this.#pings.delete(id);
        resolve(alive);
      };
      this.#pings.set(id, done);
      if (!this.#trySend({ t: "ping", id })) done(false);
    });
  }

  /** Stops the Worker and removes it from its process (the process may then be released). */
  close(): void {
    this.#process?.detach(this.#cell, this);
    this.#end("the plugin was unloaded", false, { quiet: true });
  }

  /** Whether the cell's connection is open (its Worker is running and connected). */
  get connected(): boolean {
    return this.#out !== undefined && !this.#ended;
  }

  /** Whether calls are in flight. */
  busy(): boolean {
    return this.#pending.size > 0 || this.#start !== undefined;
  }

  #onLine(text: string): void {
    if (this.#ended) return;
    if (!this.#greeted) {
      const hello = safeHello(text);
      if (hello?.t !== "hello" || hello.token !== this.#token) {
        this.#process?.detach(this.#cell, this);
        return this.#end(`the connection on ${this.name}'s socket did not come from its Worker`, "unknown");
      }
      this.#greeted = true;
      return;
    }
    if (!this.#meter.admit()) {
      this.#process?.detach(this.#cell, this);
      return this.#end(`plugin ${this.name} flooded the host with messages and was stopped`, true);
    }
    let raw: unknown;
    try {
      raw = parseLine(text);
    } catch {
      return this.#invalidMessage("dropped a message that is not JSON");
    }
    const parsed = cellMessageSchema.safeParse(raw);
    if (!parsed.success) {
      return this.#invalidMessage(`dropped a malformed message (${firstIssue(parsed.error)})`);
    }
    const m = parsed.data;
    switch (m.t) {
      case "reply": {
        const pending = this.#pending.get(m.id);
        if (!pending) {
          if (m.id > this.#lastId) {
            this.#invalidMessage(`dropped a reply to call ${m.id}, which was never made`);
          }
          return;
        }
        this.#pending.delete(m.id);
        if (m.ok) pending.resolve(m.value);
        else pending.reject(new Error(m.error ?? "the plugin reported a failure"));
        return;
      }
      case "pong": {
        const ping = this.#pings.get(m.id);
        if (ping) ping(true);
        else if (m.id > this.#lastId) {
          this.#invalidMessage(`dropped a pong for ping ${m.id}, which was never sent`);
        }
        return;
      }
      case "ready":
      case "load-failed": {
        const start = this.#start;
        if (!start) return this.#invalidMessage(`dropped a "${m.t}" message after the plugin had loaded`);
        this.#start = undefined;
        if (m.t === "ready") start.resolve(m);
        else start.reject(new CortexError(m.code, m.message));
        return;
      }
      case "req":
        this.#events.request(m.op, m.key, m.value).then(
          (value) =>
            this.#trySend({ t: "res", id: m.id, ok: true, value: value === undefined ? null : value }),
          (error) =>
            this.#trySend({
              t: "res",
              id: m.id,
              ok: false,
              error: String((error as Error)?.message ?? error),
            }),
        );
        return;
      case "log":
      case "register":
      case "unregister":
      case "subscribe":
        return this.#events.notice(m);
      case "exit":
        this.#process?.detach(this.#cell, this);
        return this.#end(`plugin ${this.name} called Deno.exit(${m.code})`, true);
    }
  }

  #oversized(size: number, head: string): void {
    // A dropped answer names its call, so the caller hears why at once.
    const replyTo = /^\{"t":"reply","id":(\d{1,15}),/.exec(head)?.[1];
    const pending = replyTo === undefined ? undefined : this.#pending.get(Number(replyTo));
    if (pending) {
      this.#pending.delete(Number(replyTo));
      pending.reject(
        new CortexError(
          "call_failed",
          `the plugin's answer was ${size} characters, over the sandbox's ${this.#maxChars} limit; it was dropped`,
        ),
      );
    }
    this.#invalidMessage(`dropped an oversized message (${size} chars; the limit is ${this.#maxChars})`);
  }

  /** The connection ended: the Worker is gone, or its whole process is. */
  async #onEnd(): Promise<void> {
    if (this.#ended) return;
    const process = this.#process;
    if (process && (await process.ping(1000))) {
      // The process lives on: only this Worker ended (it exited, closed, or failed).
      if (this.#ended) return;
      process.detach(this.#cell, this);
      this.#end(`plugin ${this.name}'s Worker ended`, true);
    }
    // Otherwise the process is dying; its exit says who was at fault.
  }

  #send(message: Record<string, unknown>): void {
    if (!this.#out) throw new CortexError("sandbox_crashed", `plugin ${this.name} is not connected`);
    let line: string;
    try {
      line = JSON.stringify(message);
    } catch (error) {
      throw new CortexError(
        "call_failed",
        `the message cannot be sent to the sandbox: ${(error as Error).message}`,
      );
    }
    this.#meter.credit();
    this.#out.write(line);
  }

  /** @inheritdoc */
  onFlood(): void {
    this.#end(`plugin ${this.name} flooded the host with messages and was stopped`, true);
  }

  /** @inheritdoc */
  onWorkerError(message: string): void {
    this.#end(`plugin ${this.name} failed: ${message}`, true);
  }

  /** @inheritdoc */
  onProcessGone(reason: string, guilty: Guilt, code: string): void {
    this.#end(reason, guilty, { code });
  }

  #trySend(message: Record<string, unknown>): boolean {
    try {
      this.#send(message);
      return true;
    } catch (error) {
      this.#events.warn(`could not send a message to the plugin: ${(error as Error).message}`);
      return false;
    }
  }

  #invalidMessage(note: string): void {
    this.#events.warn(note);
    const now = Date.now();
    if (now - this.#invalidSince > INVALID_WINDOW_MS) {
      this.#invalidSince = now;
      this.#invalid = 0;
    }
    if (++this.#invalid > INVALID_LIMIT) {
      this.#process?.detach(this.#cell, this);
      this.#end(`plugin ${this.name} sent too many malformed or forged messages and was stopped`, true);
    }
  }

  #end(reason: string, guilty: Guilt, options: { quiet?: boolean; code?: string } = {}): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#guilty = guilty;
    const error = new CortexError(options.code ?? "sandbox_crashed", reason);
    const start = this.#start;
    this.#start = undefined;
    start?.reject(error);
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of pending) p.reject(error);
    for (const ping of [...this.#pings.values()]) ping(false);
    this.#pings.clear();
    try {
      this.#conn?.close();
    } catch {
      // Already closed.
    }
    if (!options.quiet) this.#events.ended(this, reason, guilty);
  }
}
