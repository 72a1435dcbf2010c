import type { DatabaseSync } from "node:sqlite";
import { inTransaction } from "./database.ts";

/** One tool call, as audited. */
export interface AuditEntry {
  /** When the call started: epoch ms when recorded, ISO text when read back. */
  at: number | string;
  /** Caller label set by the runtime. */
  caller: string;
  /** Owning plugin. */
  plugin: string;
  /** Qualified tool name. */
  tool: string;
  /** Whether the call succeeded. */
  success: boolean;
  /** The error code when it failed. */
  errorCode?: string;
  /** Duration measured by the runtime. */
  durationMs: number;
}

/** Options for {@link AuditLog}. */
export interface AuditLogOptions {
  /** Flush at most this long after the first queued entry (default 20 ms). */
  flushDelayMs?: number;
  /** Flush at once when this many entries are queued (default 512). */
  maxQueued?: number;
  /** Called when a flush fails; entries are dropped rather than blocking calls. */
  onError?: (error: unknown) => void;
}

/**
 * The audit table, written in batches so that no caller waits on a disk
 * write: `record` only queues; a timer (unref'd) or {@link AuditLog.flush}
 * writes the queue in one transaction.
 */
export class AuditLog {
  #db: DatabaseSync;
  #queue: AuditEntry[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #delay: number;
  #max: number;
  #onError: (error: unknown) => void;

  /**
   * Creates it.
   * @param db An open, migrated database.
   */
  constructor(db: DatabaseSync, options: AuditLogOptions = {}) {
    this.#db = db;
    this.#delay = options.flushDelayMs ?? 20;
    this.#max = options.maxQueued ?? 512;
    this.#onError = options.onError ?? (() => {});
  }

  /** Queues one entry. */
  record(entry: AuditEntry): void {
    this.#queue.push(entry);
    if (this.#queue.length >= this.#max) {
      this.flush();
    } else if (this.#timer === undefined) {
      const timer = setTimeout(() => this.flush(), this.#delay);
      Deno.unrefTimer(timer);
      this.#timer = timer;
    }
  }

  /** Writes every queued entry now. */
  flush(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.#queue.length === 0) return;
    const batch = this.#queue;
    this.#queue = [];
    try {
      inTransaction(this.#db, () => {
        const insert = this.#db.prepare(
          "INSERT INTO audit (at, caller, plugin, tool, success, error_code, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?)",
        );
        for (const e of batch) {
          insert.run(
            typeof e.at === "number" ? new Date(e.at).toISOString() : e.at,
            e.caller,
            e.plugin,
            e.tool,
            e.success ? 1 : 0,
            e.errorCode ?? null,
            e.durationMs,
          );
        }
      });
    } catch (error) {
      this.#onError(error);
    }
  }

  /** The most recent entries, newest first (flushes first). */
  recent(options: { plugin?: string; limit?: number } = {}): AuditEntry[] {
    this.flush();
    const limit = Math.min(Math.max(options.limit ?? 100, 1), 10_000);
    const rows = (options.plugin
      ? this.#db.prepare(
        "SELECT * FROM audit WHERE plugin = ? ORDER BY id DESC LIMIT ?",
      ).all(options.plugin, limit)
      : this.#db.prepare("SELECT * FROM audit ORDER BY id DESC LIMIT ?").all(limit)) as {
        at: string;
        caller: string;
        plugin: string;
        tool: string;
        success: number;
        error_code: string | null;
        duration_ms: number;
      }[];
    return rows.map((r) => ({
      at: r.at,
      caller: r.caller,
      plugin: r.plugin,
      tool: r.tool,
      success: r.success === 1,
      errorCode: r.error_code ?? undefined,
      durationMs: r.duration_ms,
    }));
  }
}
