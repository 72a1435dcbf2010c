/**
 * Deadlines for a plugin's calls, which run one at a time, on one timer. The
 * timer is armed for the current call's deadline and, when it fires early
 * (the call it was armed for already finished), re-armed for the call
 * running then. Back-to-back calls therefore do not each create and clear a
 * timer, which would cost more than the rest of the host's bookkeeping.
 *
 * @example
 * ```ts
 * const watchdog = new CallWatchdog();
 * watchdog.start(1000, () => console.log("too late"));
 * watchdog.stop(); // the call answered in time
 * watchdog.dispose();
 * ```
 */
export class CallWatchdog {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #firesAt = Infinity;
  #deadline = Infinity;
  #onExpire: (() => void) | undefined;

  /** Watches one call: `onExpire` runs unless `stop` comes within `ms`. */
  start(ms: number, onExpire: () => void): void {
    this.#deadline = performance.now() + ms;
    this.#onExpire = onExpire;
    if (this.#timer === undefined || this.#firesAt > this.#deadline) this.#arm();
  }

  /** The watched call finished in time. */
  stop(): void {
    this.#onExpire = undefined;
    this.#deadline = Infinity;
  }

  /** Clears the timer for good. */
  dispose(): void {
    this.stop();
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(): void {
    clearTimeout(this.#timer);
    this.#firesAt = this.#deadline;
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, this.#deadline - performance.now()));
  }

  #fire(): void {
    this.#timer = undefined;
    const expire = this.#onExpire;
    if (!expire) return; // idle: armed again by the next start
    if (performance.now() < this.#deadline) return this.#arm();
    this.stop();
    expire();
  }
}
