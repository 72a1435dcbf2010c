/**
 * One deadline over one promise, with its timer always cleared.
 *
 * @module
 */

/**
 * Resolves like `promise`, or rejects with `late()` once `ms` pass first.
 *
 * @example
 * ```ts
 * import { withDeadline } from "./deadline.ts";
 * const value = await withDeadline(Promise.resolve(1), 100, () => new Error("late"));
 * ```
 */
export async function withDeadline<T>(
  promise: Promise<T>,
  ms: number,
  late: () => Error,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), Math.max(0, ms));
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
