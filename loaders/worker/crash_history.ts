/**
 * When a crashed plugin may restart, and when to give up on it: a plugin
 * that crashes `maxCrashes` times within `windowMs` is stopped until the
 * person re-enables it. Before that, the first restart is immediate and each
 * later one waits twice as long as the one before, from `backoffMs`.
 *
 * @module
 */

/** Options for {@link CrashHistory}. */
export interface CrashPolicy {
  /** Crashes within the window that stop the plugin (default 3). */
  maxCrashes?: number;
  /** The window, in ms (default 5 minutes). */
  windowMs?: number;
  /** The wait before the second restart, doubled for each further one (default 1000 ms). */
  backoffMs?: number;
}

/** What a recorded crash means. */
export interface CrashVerdict {
  /** Whether the plugin must now stay stopped. */
  giveUp: boolean;
  /** Crashes within the window, this one included. */
  recent: number;
  /** The earliest time (ms since the epoch) a restart may begin. */
  restartAt: number;
}

/**
 * A plugin's recent crashes.
 *
 * @example
 * ```ts
 * import { CrashHistory } from "./crash_history.ts";
 * const history = new CrashHistory({ maxCrashes: 3, windowMs: 300_000, backoffMs: 1000 });
 * history.record(0);     // { giveUp: false, recent: 1, restartAt: 0 }
 * history.record(10);    // { giveUp: false, recent: 2, restartAt: 1010 }
 * history.record(20);    // { giveUp: true, recent: 3, ... }
 * ```
 */
export class CrashHistory {
  #times: number[] = [];
  #max: number;
  #window: number;
  #backoff: number;
  #restartAt = 0;

  /** @param policy Limits and backoff. */
  constructor(policy: CrashPolicy = {}) {
    this.#max = policy.maxCrashes ?? 3;
    this.#window = policy.windowMs ?? 5 * 60_000;
    this.#backoff = policy.backoffMs ?? 1000;
  }

  /** The earliest time a restart may begin. */
  get restartAt(): number {
    return this.#restartAt;
  }

  /** The window, in ms. */
  get windowMs(): number {
    return this.#window;
  }

  /** Records a crash at `now`. */
  record(now: number): CrashVerdict {
    this.#times = this.#times.filter((t) => now - t < this.#window);
    this.#times.push(now);
    const recent = this.#times.length;
    this.#restartAt = recent <= 1 ? now : now + this.#backoff * 2 ** (recent - 2);
    return { giveUp: recent >= this.#max, recent, restartAt: this.#restartAt };
  }
}
