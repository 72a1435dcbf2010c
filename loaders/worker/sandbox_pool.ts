/**
 * Where each plugin's Worker runs. Plugins that need nothing beyond reading
 * their own code share processes (up to a number per process), because a
 * `deno run` process costs about 17 MiB and a Worker inside one about 6 MiB;
 * everything else runs in a process of its own whose ceiling is exactly its
 * own permissions. See README.md for the figures behind this choice.
 *
 * @module
 */
import { CortexError } from "../../runtime/errors.ts";
import type { ProcessCeiling } from "./process_flags.ts";
import { type ProcessOptions, SandboxProcess } from "./sandbox_process.ts";

/** One running sandbox process, for `cortex plugins ps` and the benchmarks. */
export interface SandboxProcessInfo {
  /** Its process id. */
  pid: number;
  /** Whether plugins share it. */
  shared: boolean;
  /** The plugins it hosts. */
  plugins: string[];
  /** Resident memory in MiB (Linux), when known. */
  rssMb?: number;
}

/** Sandbox processes, shared or not. */
export class SandboxPool {
  #options: ProcessOptions;
  #maxPerProcess: number;
  #processes = new Set<SandboxProcess>();
  #starting = new Map<string, Promise<SandboxProcess>>();
  #pending = new Set<Promise<unknown>>();
  #closed = false;

  /**
   * @param options How to start processes.
   * @param maxPerProcess How many plugins one shared process hosts at most.
   */
  constructor(options: ProcessOptions, maxPerProcess: number) {
    this.#options = options;
    this.#maxPerProcess = maxPerProcess;
  }

  /**
   * A live process for a new cell: a shared one with room when `shareKey` is
   * given, else a new one of its own. Attach the cell before the next await.
   */
  async acquire(ceiling: ProcessCeiling, shareKey?: string): Promise<SandboxProcess> {
    while (true) {
      if (this.#closed) throw new CortexError("sandbox_unavailable", "the sandbox loader is closed");
      if (shareKey === undefined) return await this.#start(ceiling);
      for (const p of this.#processes) {
        if (p.shareKey === shareKey && p.alive && p.hasRoom) return p;
      }
      let starting = this.#starting.get(shareKey);
      if (!starting) {
        starting = this.#start(ceiling, shareKey).finally(() => this.#starting.delete(shareKey));
        this.#starting.set(shareKey, starting);
        return await starting;
      }
      await starting.catch(() => {});
    }
  }

  /** Ends `process` when it no longer hosts any cell; resolves when it has exited. */
  async release(process: SandboxProcess): Promise<void> {
    if (process.size > 0) return;
    process.kill("no plugin runs in it any more");
    await process.exited;
  }

  /** Tracks background work so {@link SandboxPool.close} can wait for it. */
  track<T>(work: Promise<T>): Promise<T> {
    this.#pending.add(work);
    work.then(() => this.#pending.delete(work), () => this.#pending.delete(work));
    return work;
  }

  /** The running processes. */
  list(): SandboxProcessInfo[] {
    return [...this.#processes].filter((p) => p.alive).map((p) => ({
      pid: p.pid,
      shared: p.shareKey !== undefined,
      plugins: p.plugins(),
      rssMb: p.rssMb(),
    }));
  }

  /** Kills every process and waits for them and for background work. */
  async close(): Promise<void> {
    this.#closed = true;
    while (this.#pending.size > 0 || this.#starting.size > 0) {
      await Promise.allSettled([...this.#pending, ...this.#starting.values()]);
    }
    for (const p of this.#processes) p.kill("the runtime is closing");
    await Promise.allSettled([...this.#processes].map((p) => p.exited));
  }

  async #start(ceiling: ProcessCeiling, shareKey?: string): Promise<SandboxProcess> {
    const slots = shareKey === undefined ? 1 : this.#maxPerProcess;
    const process = await SandboxProcess.start(ceiling, this.#options, { slots, shareKey });
    this.#processes.add(process);
    process.exited.finally(() => this.#processes.delete(process));
    if (this.#closed) process.kill("the runtime is closing");
    return process;
  }
}
