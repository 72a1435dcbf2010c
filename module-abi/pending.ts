/**
 * Requests waiting for an answer: ids, deadlines, abort signals, and the ids
 * given up on (whose late answers are expected, not a protocol violation).
 *
 * @module
 */
import { CortexError } from "../runtime/errors.ts";

// One shape for every waiter, with or without a signal.
interface Waiter {
  readonly resolve: (payload: unknown) => void;
  readonly reject: (error: Error) => void;
  /** Infinity until the opening run of code yields (see #stamp), -Infinity once answered. */
  deadline: number;
  readonly label: string;
  readonly timeoutMs: number;
  readonly timeoutCode: string;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

type Outcome = { ok: true; payload: unknown } | { ok: false; error: Error };

// Late answers remembered at most; older given-up ids are forgotten, oldest first.
const ABANDONED_LIMIT = 4096;

// Keys count up from ID_BASE + 1, so an id is the prefix and 10 digits: 11 characters or more.
// Both choices spare V8's garbage collector (measured in the bench's host, where a fresh id
// per frame tripled the time spent in scavenges): JSON.parse interns string values of up to
// 10 characters, and V8 keeps every number it turns into a string in a cache that holds them
// in the young generation until a full collection. So an id is also built without turning
// its key into a string: the digits above the last three change once per 1,000 ids, and the
// last three come from a table.
const ID_BASE = 1_000_000_000;
const LAST_DIGITS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, "0"));

/**
 * A table of requests in flight, keyed by `request_id` (the prefix and a
 * decimal number of ten digits or more, counting up). One timer serves all
 * deadlines: it is armed for the earliest one and re-armed as it fires, so a
 * request costs no timer of its own (a timer per call showed in the bench). A
 * deadline counts from when the code that opened the request yields, so it
 * may fire that much late, never early.
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
  #next = ID_BASE + 1;
  // Keyed by the number after the prefix: a fresh string key costs a hash on every call, a
  // small integer none.
  #waiting = new Map<number, Waiter>();
  #abandoned = new Set<number>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Infinity;
  #thousands = -1;
  #idHead = "";
  #resolve: ((payload: unknown) => void) | undefined;
  #reject: ((error: Error) => void) | undefined;
  #capture = (resolve: (payload: unknown) => void, reject: (error: Error) => void) => {
    this.#resolve = resolve;
    this.#reject = reject;
  };
  #unstamped: Waiter[] = [];
  // Deadlines count from when the code that opened the requests yields, one clock read for
  // every request opened in that run of code (Date.now() cost 45 ns a call): later than the
  // true opening by the rest of that run, so a deadline may come that much late, never early.
  #stamp = () => {
    const now = Date.now();
    let earliest = Infinity;
    for (const waiter of this.#unstamped) {
      if (waiter.deadline !== Infinity) continue; // answered already
      waiter.deadline = now + waiter.timeoutMs;
      if (waiter.deadline < earliest) earliest = waiter.deadline;
    }
    this.#unstamped = [];
    if (earliest < this.#timerAt) this.#arm(earliest);
  };

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
    const key = this.#next++;
    const { timeoutMs, signal } = options;
    const timeoutCode = options.timeoutCode ?? "call_timeout";
    // One executor for every request: no closure per call.
    const answer = new Promise<unknown>(this.#capture);
    const waiter: Waiter = {
      resolve: this.#resolve!,
      reject: this.#reject!,
      deadline: Infinity,
      label,
      timeoutMs,
      timeoutCode,
      signal: undefined,
      onAbort: undefined,
    };
    // Not kept here past this call: they hold the promise and what waits on it.
    this.#resolve = this.#reject = undefined;
    this.#waiting.set(key, waiter);
    if (signal) {
      const onAbort = () => this.#giveUp(key, new CortexError("call_aborted", `${label} was aborted`));
      waiter.signal = signal;
      waiter.onAbort = onAbort;
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    }
    if (this.#unstamped.push(waiter) === 1) queueMicrotask(this.#stamp);
    return { id: this.#idOf(key), answer };
  }

  /**
   * Delivers an answer. Returns `"settled"`, `"late"` for an id given up on,
   * or `"unknown"` for an id never issued or already answered.
   */
  settle(id: string, outcome: Outcome): "settled" | "late" | "unknown" {
    return outcome.ok ? this.resolve(id, outcome.payload) : this.reject(id, outcome.error);
  }

  /** {@link settle} with a result payload, without building an outcome. */
  resolve(id: string, payload: unknown): "settled" | "late" | "unknown" {
    const waiter = this.#answered(id);
    if (typeof waiter === "string") return waiter;
    waiter.resolve(payload);
    return "settled";
  }

  /** {@link settle} with an error. */
  reject(id: string, error: Error): "settled" | "late" | "unknown" {
    const waiter = this.#answered(id);
    if (typeof waiter === "string") return waiter;
    waiter.reject(error);
    return "settled";
  }

  #answered(id: string): Waiter | "late" | "unknown" {
    const key = this.#keyOf(id);
    if (key === 0) return "unknown";
    const waiter = this.#take(key);
    if (waiter) return waiter;
    return this.#abandoned.delete(key) ? "late" : "unknown";
  }

  /** Rejects every waiting request with `error` and stops the timer. */
  failAll(error: Error): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Infinity;
    for (const key of [...this.#waiting.keys()]) this.#take(key)?.reject(error);
  }

  // prefix + key in decimal, the same text as `${prefix}${key}` (keys have 10 digits or more).
  #idOf(key: number): string {
    const thousands = Math.floor(key / 1000);
    if (thousands !== this.#thousands) {
      this.#thousands = thousands;
      this.#idHead = this.#prefix + thousands;
    }
    return this.#idHead + LAST_DIGITS[key - thousands * 1000];
  }

  // The key of an id this table issued (the prefix, then digits without a leading zero), or 0
  // for any other string: "h01" is not "h1".
  #keyOf(id: string): number {
    const prefix = this.#prefix;
    const start = prefix.length;
    const length = id.length;
    if (length < start + 10 || length > start + 15) return 0;
    // Not startsWith: several times slower for a prefix of a character or two.
    for (let i = 0; i < start; i++) {
      if (id.charCodeAt(i) !== prefix.charCodeAt(i)) return 0;
    }
    let key = 0;
    for (let i = start; i < length; i++) {
      const digit = id.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9 || (digit === 0 && i === start)) return 0;
      key = key * 10 + digit;
    }
    return key > ID_BASE && key < this.#next ? key : 0;
  }

  #take(key: number): Waiter | undefined {
    const waiter = this.#waiting.get(key);
    if (!waiter) return undefined;
    this.#waiting.delete(key);
    waiter.deadline = -Infinity;
    if (waiter.onAbort) waiter.signal!.removeEventListener("abort", waiter.onAbort);
    return waiter;
  }

  #giveUp(key: number, error: CortexError): void {
    const waiter = this.#take(key);
    if (!waiter) return;
    this.#abandoned.add(key);
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
    for (const [key, waiter] of [...this.#waiting]) {
      if (waiter.deadline > now) next = Math.min(next, waiter.deadline);
      else {
        const message = `${waiter.label} got no answer within ${waiter.timeoutMs} ms`;
        this.#giveUp(key, new CortexError(waiter.timeoutCode, message));
      }
    }
    if (next !== Infinity) this.#arm(next);
  }
}
