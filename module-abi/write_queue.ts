/**
 * The write side of a framed connection, shared by the host and the
 * TypeScript SDK: text queued in one tick leaves in one UTF-8 encode and one
 * `write`, encoded into a buffer that is reused from write to write.
 *
 * @module
 */

// Batches up to this many UTF-16 units (3 bytes each at most) are encoded into the reused
// buffer; a larger batch gets a buffer of its own.
const BUFFER_BYTES = 65_536;
const encoder = new TextEncoder();

/**
 * An ordered writer of text over a byte `write` function (such as
 * `Deno.Conn.write`, which may write part of what it is given). Never two
 * writes at once; text pushed while a write runs leaves in the next one.
 *
 * @example
 * ```ts
 * import { WriteQueue } from "./write_queue.ts";
 * const chunks: string[] = [];
 * const queue = new WriteQueue((bytes) => {
 *   chunks.push(new TextDecoder().decode(bytes));
 *   return Promise.resolve(bytes.length);
 * }, (error) => console.error(error));
 * queue.push("a\n");
 * queue.push("b\n");
 * await queue.flushed;
 * chunks; // ["a\nb\n"]: one write
 * ```
 */
export class WriteQueue {
  #write: (bytes: Uint8Array) => Promise<number>;
  #onError: (error: Error) => void;
  #text = "";
  #buffer = new Uint8Array(BUFFER_BYTES);
  #running: Promise<void> | undefined;
  #scheduled = false;
  #failed = false;

  /**
   * @param write Writes some of `bytes` and resolves with how many.
   * @param onError Called once, with the first write error; later text is dropped.
   */
  constructor(write: (bytes: Uint8Array) => Promise<number>, onError: (error: Error) => void) {
    this.#write = write;
    this.#onError = onError;
  }

  /** Settles when everything pushed so far is written, or the writer failed. */
  get flushed(): Promise<void> {
    this.#start();
    return this.#running ?? Promise.resolve();
  }

  /** Whether nothing is queued or being written. */
  get idle(): boolean {
    return this.#running === undefined && this.#text.length === 0;
  }

  /** Queues `text`; it is written after the current task's synchronous code and microtasks so far. */
  push(text: string): void {
    if (this.#failed) return;
    this.#text += text;
    if (!this.#scheduled && this.#running === undefined) {
      this.#scheduled = true;
      queueMicrotask(this.#start);
    }
  }

  /**
   * Writes what is queued now, for an owner that knows nothing more is coming in this tick
   * (the SDK, once it has answered a chunk of frames): no wait for the microtask.
   */
  flush(): void {
    this.#start();
  }

  /** Drops what is queued and not yet being written. */
  clear(): void {
    this.#text = "";
  }

  #start = (): void => {
    this.#scheduled = false;
    if (this.#running === undefined && this.#text.length > 0 && !this.#failed) this.#running = this.#run();
  };

  // Runs synchronously up to the first write, then one write at a time until nothing is left.
  async #run(): Promise<void> {
    try {
      while (this.#text.length > 0) {
        const bytes = this.#encode(this.#text);
        this.#text = "";
        let at = 0;
        while (at < bytes.length) at += await this.#write(at === 0 ? bytes : bytes.subarray(at));
      }
    } catch (error) {
      this.#failed = true;
      this.#text = "";
      this.#onError(error as Error);
    } finally {
      this.#running = undefined;
    }
  }

  // The buffer is only reused once the write that used it has resolved.
  #encode(text: string): Uint8Array {
    if (text.length * 3 > BUFFER_BYTES) return encoder.encode(text);
    const { written } = encoder.encodeInto(text, this.#buffer);
    return this.#buffer.subarray(0, written);
  }
}
