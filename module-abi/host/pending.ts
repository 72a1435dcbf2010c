/**
 * Requests waiting for an answer: ids, deadlines, abort signals, and the ids
 * given up on (whose late answers are expected, not a protocol violation).
 *
 * @module
 */
import { CortexError } from "../../runtime/errors.ts";

interface Waiter {
  readonly resolve: (payload: unknown) => void;
  readonly reject: (error: Error) => void;
  readonly cleanup: () => void;
}

// Late answers remembered at most; older given-up ids are forgotten, oldest first.
const ABANDONED_LIMIT = 4096;

/**
 * A table of requests in flight, keyed by `request_id`.
 *
 * @example
 * ```ts
 * import { PendingRequests } from "./pending.ts";
 * const pending = new PendingRequests("c");
 * const { id, answer } = pending.open("call echo", { timeoutMs: 1000 });
 * pending.settle(id, { ok: true, payload: "hi" });
 * await answer; // "hi"
 * ```
 */
export class PendingRequests {
  #prefix: string;
  #next = 1;
  #waiting = new Map<string, Waiter>();
  #abandoned = new Set<string>();

  /** @param prefix Starts every id, so two tables on one connection never collide. */
  constructor(prefix: string) {
    this.#prefix = prefix;
  }

  /** How many requests are waiting. */
  get size(): number {
    return this.#waiting.size;
  }

  /**
   * Opens a request. `label` names it in timeout messages (never include payloads).
   * The answer rejects with `call_timeout` or `call_aborted`.
   */
  open(
    label: string,
    options: { timeoutMs: number; signal?: AbortSignal; timeoutCode?: string },
  ): { id: string; answer: Promise<unknown> } {
    const id = `${this.#prefix}${this.#next++}`;
    const answer = new Promise<unknown>((resolve, reject) => {
      const giveUp = (error: CortexError) => {
        this.#waiting.get(id)?.cleanup();
        this.#waiting.delete(id);
        this.#abandon(id);
        reject(error);
      };
      const timer = setTimeout(
        () =>
          giveUp(
            new CortexError(
              options.timeoutCode ?? "call_timeout",
              `${label} got no answer within ${options.timeoutMs} ms`,
            ),
          ),
        options.timeoutMs,
      );
      const onAbort = () => giveUp(new CortexError("call_aborted", `${label} was aborted`));
      options.signal?.addEventListener("abort", onAbort, { once: true });
      const cleanup = () => {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
      };
      this.#waiting.set(id, { resolve, reject, cleanup });
      if (options.signal?.aborted) onAbort();
    });
    return { id, answer };
  }

  /**
   * Delivers an answer. Returns `"settled"`, `"late"` for an id given up on,
   * or `"unknown"` for an id never issued or already answered.
   */
  settle(
    id: string,
    outcome: { ok: true; payload: unknown } | { ok: false; error: Error },
  ): "settled" | "late" | "unknown" {
    const waiter = this.#waiting.get(id);
    if (!waiter) return this.#abandoned.delete(id) ? "late" : "unknown";
    this.#waiting.delete(id);
    waiter.cleanup();
    if (outcome.ok) waiter.resolve(outcome.payload);
    else waiter.reject(outcome.error);
    return "settled";
  }

  /** Rejects every waiting request with `error`. */
  failAll(error: CortexError): void {
    const waiters = [...this.#waiting.values()];
    this.#waiting.clear();
    for (const waiter of waiters) {
      waiter.cleanup();
      waiter.reject(error);
    }
  }

  #abandon(id: string): void {
    this.#abandoned.add(id);
    if (this.#abandoned.size > ABANDONED_LIMIT) {
      this.#abandoned.delete(this.#abandoned.values().next().value!);
    }
  }
}
