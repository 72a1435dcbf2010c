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

/**
 * Runs `fn` with a deadline. `fn` receives a signal that aborts when the
 * deadline passes or the outer signal aborts; the returned promise rejects
 * with a {@link CortexError} at that moment, whether or not `fn` listens.
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
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onOuterAbort);
      if (error !== undefined) {
        controller.abort(error);
        reject(error);
      } else resolve(value as T);
    };
    const timer = setTimeout(
      () => finish(new CortexError(options.code, options.message)),
      ms,
    );
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
