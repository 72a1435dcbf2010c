/**
 * Requests waiting for an answer: ids, deadlines, abort signals, and the ids
 * given up on (whose late answers are expected, not a protocol violation).
 *
 * @module
 */
import { CortexError } from "../runtime/errors.ts";

interface Waiter {
  readonly resolve: (payload: unknown) => void;
  readonly reject: (error: Error) => void;
  readonly deadline: number;
  readonly label: string;
  readonly timeoutMs: number;
  readonly timeoutCode: string;
  readonly signal?: AbortSignal;
  readonly onAbort?: () => void;
}

type Outcome = { ok: true; payload: unknown } | { ok: false; error: Error };

// Late answers remembered at most; older given-up ids are forgotten, oldest first.
const ABANDONED_LIMIT = 4096;

/**
 * A table of requests in flight, keyed by `request_id`. One timer serves all
 * deadlines: it is armed for the earliest one and re-armed as it fires, so a
 * request costs no timer of its own (a timer per call showed in the bench).
 *
 * @example
 * ```ts
 * import { PendingRequests } from "./pending.ts";
 * const pending = new PendingRequests("c");
 * const { id, answer } = pending.open("call echo", { timeoutMs: 1000 });
 * pending.settle(id, { ok: true, payload: "hi" });
 * await answer; // "hi"
 * pending.failAll(new Error("closing")); // also clears the timer
 * ```
 */
export class PendingRequests {
  #prefix: string;
  #next = 1;
  #waiting = new Map<string, Waiter>();
  #abandoned = new Set<string>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Infinity;

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
   * The answer rejects with `call_timeout` (or `timeoutCode`) or `call_aborted`.
   */
  open(
    label: string,
    options: { timeoutMs: number; signal?: AbortSignal; timeoutCode?: string },
  ): { id: string; answer: Promise<unknown> } {
    const id = this.#prefix + this.#next++;
    const { timeoutMs, signal } = options;
    const timeoutCode = options.timeoutCode ?? "call_timeout";
    const deadline = Date.now() + timeoutMs;
    const answer = new Promise<unknown>((resolve, reject) => {
      if (!signal) {
        this.#waiting.set(id, { resolve, reject, deadline, label, timeoutMs, timeoutCode });
        return;
      }
      const onAbort = () => this.#giveUp(id, new CortexError("call_aborted", `${label} was aborted`));
      this.#waiting.set(id, {
        resolve,
        reject,
        deadline,
        label,
        timeoutMs,
        timeoutCode,
        signal,
        onAbort,
      });
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    });
    if (deadline < this.#timerAt) this.#arm(deadline);
    return { id, answer };
  }

  /**
   * Delivers an answer. Returns `"settled"`, `"late"` for an id given up on,
   * or `"unknown"` for an id never issued or already answered.
   */
  settle(id: string, outcome: Outcome): "settled" | "late" | "unknown" {
    const waiter = this.#take(id);
    if (!waiter) return this.#abandoned.delete(id) ? "late" : "unknown";
    if (outcome.ok) waiter.resolve(outcome.payload);
    else waiter.reject(outcome.error);
    return "settled";
  }

  /** Rejects every waiting request with `error` and stops the timer. */
  failAll(error: Error): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Infinity;
    for (const id of [...this.#waiting.keys()]) this.#take(id)?.reject(error);
  }

  #take(id: string): Waiter | undefined {
    const waiter = this.#waiting.get(id);
    if (!waiter) return undefined;
    this.#waiting.delete(id);
    if (waiter.onAbort) waiter.signal?.removeEventListener("abort", waiter.onAbort);
    return waiter;
  }

  #giveUp(id: string, error: CortexError): void {
    const waiter = this.#take(id);
    if (!waiter) return;
    this.#abandoned.add(id);
    if (this.#abandoned.size > ABANDONED_LIMIT) {
      this.#abandoned.delete(this.#abandoned.values().next().value!);
    }
    waiter.reject(error);
  }

  #arm(at: number): void {
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => this.#sweep(), Math.max(0, at - Date.now()));
  }

  // Expires what is due and re-arms for the earliest deadline left; an empty table leaves
  // the timer off.
  #sweep(): void {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    const now = Date.now();
    let next = Infinity;
    for (const [id, waiter] of [...this.#waiting]) {
      if (waiter.deadline > now) next = Math.min(next, waiter.deadline);
      else {
        const message = `${waiter.label} got no answer within ${waiter.timeoutMs} ms`;
        this.#giveUp(id, new CortexError(waiter.timeoutCode, message));
      }
    }
    if (next !== Infinity) this.#arm(next);
  }
}
