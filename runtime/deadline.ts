import { CortexError } from "./errors.ts";

/** Options for {@link withDeadline}. */
export interface DeadlineOptions {
  /** Error code when the deadline passes. */
  code: string;
  /** Error message when the deadline passes. */
  message: string;
  /** An outer signal (the caller giving up) that also ends the wait. */
  signal?: AbortSignal;
}

/** How often pending deadlines are checked, in ms: the most a deadline can be late by. */
const SWEEP_EVERY_MS = 10;

/** How long the sweep timer stays armed after the last deadline settles, in ms. */
const IDLE_STOP_MS = 1000;

interface Pending {
  due: number;
  expire: () => void;
}

/**
 * Pending deadlines, checked by one shared timer instead of a timer per
 * call: arming and clearing a timer costs about as much as the rest of the
 * call path, and deadlines measured in seconds do not need better than 10 ms.
 */
class DeadlineSweeper {
  #pending = new Set<Pending>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #idleSince = 0;

  add(ms: number, expire: () => void): Pending {
    const entry = { due: performance.now() + ms, expire };
    this.#pending.add(entry);
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#sweep(), SWEEP_EVERY_MS);
    } else if (this.#pending.size === 1) {
      Deno.refTimer(this.#timer);
    }
    return entry;
  }

  remove(entry: Pending): void {
    this.#pending.delete(entry);
    if (this.#pending.size === 0) this.#idle();
  }

  // A pending deadline keeps the process alive (a hung call must still time out);
  // an idle sweeper must not.
  #idle(): void {
    this.#idleSince = performance.now();
    if (this.#timer !== undefined) Deno.unrefTimer(this.#timer);
  }

  #sweep(): void {
    const now = performance.now();
    for (const entry of this.#pending) {
      if (entry.due <= now) {
        this.#pending.delete(entry);
        if (this.#pending.size === 0) this.#idle();
        entry.expire();
      }
    }
    if (this.#pending.size === 0 && now - this.#idleSince > IDLE_STOP_MS) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }
}

const sweeper = new DeadlineSweeper();

/**
 * Runs `fn` with a deadline. `fn` receives a signal that aborts when the
 * deadline passes or the outer signal aborts; the returned promise rejects
 * with a {@link CortexError} at that moment, whether or not `fn` listens.
 * A deadline fires at most 10 ms late.
 */
export function withDeadline<T>(
  fn: (signal: AbortSignal) => Promise<T> | T,
  ms: number,
  options: DeadlineOptions,
): Promise<T> {
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const finish = (error: unknown, value?: T) => {
      if (settled) return;
      settled = true;
      sweeper.remove(pending);
      options.signal?.removeEventListener("abort", onOuterAbort);
      if (error !== undefined) {
        controller.abort(error);
        reject(error);
      } else resolve(value as T);
    };
    const pending = sweeper.add(ms, () => finish(new CortexError(options.code, options.message)));
    const onOuterAbort = () => finish(new CortexError("call_cancelled", "the caller cancelled the call"));
    if (options.signal?.aborted) return onOuterAbort();
    options.signal?.addEventListener("abort", onOuterAbort, { once: true });
    try {
      Promise.resolve(fn(controller.signal)).then(
        (value) => finish(undefined, value),
        (error) => finish(error ?? new Error("rejected without a reason")),
      );
    } catch (error) {
      finish(error ?? new Error("threw without a reason"));
    }
  });
}
