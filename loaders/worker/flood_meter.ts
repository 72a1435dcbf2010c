/**
 * How many messages a sandbox may send: one per message it was sent
 * (credit: replies, pongs and answers to requests never run out), plus a
 * steady allowance with a burst for what it sends on its own (logs,
 * requests, registrations). Free of imports: the sandbox side uses it too.
 *
 * @module
 */
import { FLOOD_BURST, FLOOD_RATE_PER_SECOND } from "./_protocol.ts";

/**
 * A token bucket with credit.
 *
 * @example
 * ```ts
 * import { FloodMeter } from "./flood_meter.ts";
 * const meter = new FloodMeter();
 * meter.credit();          // the host sent a call
 * console.log(meter.admit()); // true: its reply
 * ```
 */
export class FloodMeter {
  #credit = 0;
  #tokens: number;
  #rate: number;
  #burst: number;
  #refilledAt = performance.now();

  /** @param options Allowance per second and burst (defaults 1000 and 2000). */
  constructor(options: { ratePerSecond?: number; burst?: number } = {}) {
    this.#rate = options.ratePerSecond ?? FLOOD_RATE_PER_SECOND;
    this.#burst = options.burst ?? FLOOD_BURST;
    this.#tokens = this.#burst;
  }

  /** Allows one more message in answer to one sent. */
  credit(): void {
    this.#credit++;
  }

  /** Whether one more message is within the allowance (and counts it). */
  admit(): boolean {
    if (this.#credit > 0) {
      this.#credit--;
      return true;
    }
    const now = performance.now();
    this.#tokens = Math.min(this.#burst, this.#tokens + ((now - this.#refilledAt) / 1000) * this.#rate);
    this.#refilledAt = now;
    if (this.#tokens < 1) return false;
    this.#tokens--;
    return true;
  }
}
