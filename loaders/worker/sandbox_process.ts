/**
 * The host's handle on one sandbox process: starts it (`deno run` with its
 * permission ceiling), holds its control connection, places cells in its
 * slots (each cell's Worker connects to the slot's own socket, so every byte
 * on that connection is the cell's), watches its memory, and kills it
 * (SIGKILL, which a Deno process always dies of) when asked. When it dies,
 * each of its cells is told whether it was the one at fault.
 *
 * @module
 */
import { CortexError } from "../../runtime/errors.ts";
import { LineWriter, readLines } from "./_lines.ts";
import { firstIssue, parseLine, processFrameSchema } from "./messages.ts";
import type { ProcessCeiling } from "./process_flags.ts";
import { describeExit, type ProcessOptions, rssMb, safeParse, spawnSandbox } from "./spawn_sandbox.ts";

export type { ProcessOptions };

/** Whether a cell caused its process's end. */
export type Guilt = boolean | "unknown";

/** The host-side end of one cell, as its process sees it. */
export interface CellTarget {
  /** The plugin's name. */
  readonly name: string;
  /** The cell's Worker failed (and was stopped). */
  onWorkerError(message: string): void;
  /** The cell's Worker posted a stream of messages to the process and was stopped. */
  onFlood(): void;
  /** The process is gone; `code` is `sandbox_unavailable` when it could not run Workers at all. */
  onProcessGone(reason: string, guilty: Guilt, code: string): void;
  /** Whether the cell had work in flight (used to tell who was at fault). */
  busy(): boolean;
}

/** One running sandbox process. */
export class SandboxProcess {
  /** Its process id. */
  readonly pid: number;
  /** Set for a process plugins share: the key of its ceiling. */
  readonly shareKey: string | undefined;
  /** Resolves when it has exited and everything it held is released. */
  readonly exited: Promise<void>;
  #child: Deno.ChildProcess;
  #out: LineWriter;
  #options: ProcessOptions;
  #slots: string[];
  #free: number[];
  #cells = new Map<number, CellTarget>();
  #listeners = new Map<number, Deno.Listener>();
  #pings = new Map<number, (alive: boolean) => void>();
  #nextPing = 1;
  #alive = true;
  #kill?: { reason: string; guilty?: number };
  #watchdog?: ReturnType<typeof setInterval>;

  private constructor(
    spawned: Awaited<ReturnType<typeof spawnSandbox>>,
    ceiling: ProcessCeiling,
    options: ProcessOptions,
    shareKey: string | undefined,
    onFirstLine: (line: string | undefined) => void,
  ) {
    const { child, conn, stderr, stderrDone } = spawned;
    this.#child = child;
    this.#out = new LineWriter(conn);
    this.pid = child.pid;
    this.#options = options;
    this.shareKey = shareKey;
    this.#slots = spawned.cellSockets;
    this.#free = this.#slots.map((_, i) => i + 1);
    let greeted = false;
    const readerDone = readLines(conn, (line) => {
      if (greeted) return this.#onLine(line);
      greeted = true;
      onFirstLine(line);
    }, {
      maxChars: 65_536,
      onOversized: (size) =>
        options.onDiagnostic(`sandbox ${this.pid}: dropped an oversized frame (${size} chars)`),
    });
    this.exited = (async () => {
      const status = await child.status;
      this.#alive = false;
      if (this.#watchdog !== undefined) clearInterval(this.#watchdog);
      onFirstLine(undefined);
      for (const listener of this.#listeners.values()) listener.close();
      this.#listeners.clear();
      for (const ping of [...this.#pings.values()]) ping(false);
      await readerDone;
      try {
        conn.close();
      } catch {
        // Already closed.
      }
      await stderrDone;
      await Deno.remove(spawned.dir, { recursive: true }).catch(() => {});
      const reason = this.#kill?.reason ?? describeExit(status, stderr.text, ceiling.heapMb);
      const code = !this.#kill && status.code === 70 ? "sandbox_unavailable" : "sandbox_crashed";
      const cells = [...this.#cells];
      this.#cells.clear();
      const guilty = this.#kill?.guilty ?? this.#blame(cells);
      for (const [id, target] of cells) {
        try {
          target.onProcessGone(reason, guilty === undefined ? "unknown" : guilty === id, code);
        } catch {
          // A cell's failure to clean up is its own.
        }
      }
    })();
    const limit = options.rssLimit;
    if (limit && Deno.build.os === "linux") {
      const timer = setInterval(() => {
        const used = rssMb(this.pid);
        const cap = limit.baseMb + limit.perCellMb * Math.max(1, this.#cells.size);
        if (used !== undefined && used > cap) {
          this.kill(
            `the sandbox used ${Math.round(used)} MiB of memory, over its ${Math.round(cap)} MiB cap`,
          );
        }
      }, options.watchdogMs);
      Deno.unrefTimer(timer);
      this.#watchdog = timer;
    }
  }

  /**
   * Starts a process with `ceiling` and `slots` cell slots, and waits until
   * it has connected and greeted with the nonce it was given.
   *
   * @throws {CortexError} `sandbox_unavailable` when it cannot start or connect.
   */
  static async start(
    ceiling: ProcessCeiling,
    options: ProcessOptions,
    placement: { slots: number; shareKey?: string },
  ): Promise<SandboxProcess> {
    const nonce = crypto.randomUUID();
    const spawned = await spawnSandbox(ceiling, { ...options, slots: placement.slots, nonce });
    let settle!: (line: string | undefined) => void;
    const greeted = new Promise<string | undefined>((resolve) => (settle = resolve));
    const process = new SandboxProcess(spawned, ceiling, options, placement.shareKey, settle);
    const timer = setTimeout(() => settle(undefined), options.startTimeoutMs);
    const first = await greeted;
    clearTimeout(timer);
    const hello = processFrameSchema.safeParse(safeParse(first));
    if (!hello.success || hello.data.t !== "hello" || hello.data.nonce !== nonce) {
      process.kill("the sandbox process did not greet correctly");
      await process.exited;
      throw new CortexError("sandbox_unavailable", "the sandbox process did not start correctly");
    }
    return process;
  }

  /** Whether the process is running and not being killed (new work must not go to it). */
  get alive(): boolean {
    return this.#alive && this.#kill === undefined;
  }

  /** How many cells it hosts. */
  get size(): number {
    return this.#cells.size;
  }

  /** Whether it has a free slot. */
  get hasRoom(): boolean {
    return this.#free.length > 0;
  }

  /** The plugins it hosts. */
  plugins(): string[] {
    return [...this.#cells.values()].map((c) => c.name);
  }

  /**
   * Places a cell in a free slot; returns the slot (the Worker starts with
   * {@link SandboxProcess.spawn}).
   */
  attach(target: CellTarget): number {
    const slot = this.#free.shift();
    if (slot === undefined) throw new CortexError("internal", `sandbox ${this.pid} has no free slot`);
    this.#cells.set(slot, target);
    return slot;
  }

  /**
   * Starts slot `id`'s Worker with `permissions` (plus its own socket) and
   * resolves with its connection once it has connected.
   *
   * @throws {CortexError} `sandbox_crashed` when the cell ends or the process dies first.
   */
  async spawn(
    id: number,
    permissions: Deno.PermissionOptionsObject,
    init: Record<string, unknown>,
  ): Promise<Deno.Conn> {
    const path = this.#slots[id - 1];
    await Deno.remove(path).catch(() => {});
    const listener = Deno.listen({ transport: "unix", path });
    this.#listeners.set(id, listener);
    const list = (value: unknown) => (Array.isArray(value) ? value : []);
    this.#send({
      t: "spawn",
      cell: id,
      permissions: {
        ...permissions,
        read: [...list(permissions.read), path],
        write: [...list(permissions.write), path],
        net: [...list(permissions.net), `unix:${path}`],
      },
      init: { ...init, socket: path },
    });
    try {
      return await listener.accept();
    } catch {
      throw new CortexError("sandbox_crashed", "the plugin's Worker ended before it connected");
    } finally {
      listener.close();
      this.#listeners.delete(id);
      await Deno.remove(path).catch(() => {});
    }
  }

  /** Removes `target` from slot `id` (if it is still there), stops its Worker and frees the slot. */
  detach(id: number, target: CellTarget): void {
    if (this.#cells.get(id) !== target) return;
    this.#cells.delete(id);
    this.#listeners.get(id)?.close();
    this.#free.push(id);
    this.#send({ t: "stop", cell: id });
  }

  /** Kills the process now; `guilty` names the slot at fault, when known. */
  kill(reason: string, guilty?: number): void {
    if (!this.#alive) return;
    this.#kill ??= { reason, guilty };
    try {
      this.#child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
  }

  /** Resolves true when the process's main thread answers within `timeoutMs`. */
  ping(timeoutMs: number): Promise<boolean> {
    if (!this.alive) return Promise.resolve(false);
    const id = this.#nextPing++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(false), timeoutMs);
      const done = (alive: boolean) => {
        clearTimeout(timer);
        this.#pings.delete(id);
        resolve(alive);
      };
      this.#pings.set(id, done);
      this.#send({ t: "ping", id });
    });
  }

  /** Resident memory in MiB (Linux), or undefined. */
  rssMb(): number | undefined {
    return this.#alive ? rssMb(this.pid) : undefined;
  }

  #send(frame: Record<string, unknown>): void {
    if (this.#alive) this.#out.write(JSON.stringify(frame));
  }

  #blame(cells: [number, CellTarget][]): number | undefined {
    if (cells.length === 1) return cells[0][0];
    const busy = cells.filter(([, t]) => t.busy());
    return busy.length === 1 ? busy[0][0] : undefined;
  }

  #onLine(line: string): void {
    const diag = this.#options.onDiagnostic;
    let raw: unknown;
    try {
      raw = parseLine(line);
    } catch {
      diag(`sandbox ${this.pid}: dropped a frame that is not JSON`);
      return;
    }
    const parsed = processFrameSchema.safeParse(raw);
    if (!parsed.success) {
      diag(`sandbox ${this.pid}: dropped a malformed frame (${firstIssue(parsed.error)})`);
      return;
    }
    const frame = parsed.data;
    if (frame.t === "hello") return diag(`sandbox ${this.pid}: dropped a second hello`);
    if (frame.t === "pong") return this.#pings.get(frame.id)?.(true);
    const target = this.#cells.get(frame.cell);
    if (!target) return diag(`sandbox ${this.pid}: dropped a frame for slot ${frame.cell}, which is empty`);
    this.detach(frame.cell, target);
    if (frame.t === "flood") target.onFlood();
    else target.onWorkerError(frame.message);
  }
}
