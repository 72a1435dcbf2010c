/**
 * One framed connection over a Deno stream: reads frames with the incremental
 * reader and writes them through one queue, so frames from concurrent senders
 * never interleave and frames sent in the same tick go out in one write.
 *
 * @module
 */
import type { ModuleWireError } from "../errors.ts";
import { encodeFrameText } from "../wire/encode.ts";
import type { ModuleFrame } from "../wire/frame.ts";
import { FrameReader, type FrameSink } from "../wire/reader.ts";
import { WriteQueue } from "../write_queue.ts";

/** What the channel tells its owner. */
export interface FrameChannelHandlers {
  /** A well-formed frame arrived. */
  onFrame(frame: ModuleFrame): void;
  /** A malformed line arrived; the owner decides whether to close. */
  onMalformed(error: ModuleWireError): void;
  /** The connection ended (the peer closed it, it broke, or `close` was called); called once. */
  onClose(): void;
}

/** The stream a channel runs over (a `Deno.UnixConn` in the host). */
export interface FrameConn {
  /** Reads into `buffer`; resolves with the byte count, or `null` at end of stream. */
  read(buffer: Uint8Array): Promise<number | null>;
  /** Writes some of `bytes`; resolves with how many were written. */
  write(bytes: Uint8Array): Promise<number>;
  /** Closes both directions. */
  close(): void;
}

const READ_SIZE = 65_536;

/**
 * Frames over a connection.
 *
 * @example
 * ```ts ignore
 * import { FrameChannel } from "./frame_channel.ts";
 * const channel = new FrameChannel(conn, {
 *   onFrame: (frame) => console.log(frame.type),
 *   onMalformed: (error) => console.log(error.code),
 *   onClose: () => console.log("closed"),
 * });
 * channel.send({ type: "event", name: "tick", payload: null });
 * ```
 */
export class FrameChannel {
  #conn: FrameConn;
  #handlers: FrameChannelHandlers;
  #writes: WriteQueue;
  #closed = false;
  #reading: Promise<void>;

  /** Starts reading at once. */
  constructor(conn: FrameConn, handlers: FrameChannelHandlers) {
    this.#conn = conn;
    this.#handlers = handlers;
    this.#writes = new WriteQueue((bytes) => conn.write(bytes), () => this.close());
    this.#reading = this.#readLoop();
  }

  /** Whether the channel is closed. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Settles when the read loop has ended. */
  get done(): Promise<void> {
    return this.#reading;
  }

  /**
   * Queues one frame. Throws the encoder's `ModuleWireError` for a bad frame;
   * returns false when the channel is already closed.
   */
  send(frame: ModuleFrame): boolean {
    const text = encodeFrameText(frame);
    if (this.#closed) return false;
    this.#writes.push(text);
    return true;
  }

  /** Waits until everything queued so far is written, or the deadline passes. */
  async drain(timeoutMs: number): Promise<void> {
    if (this.#writes.idle) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<void>((
      resolve,
    ) => (timer = setTimeout(resolve, timeoutMs)));
    try {
      await Promise.race([this.#writes.flushed, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes the connection; waiting reads end and `onClose` runs. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#writes.clear();
    try {
      this.#conn.close();
    } catch {
      // Already closed by the peer side; nothing left to release.
    }
  }

  async #readLoop(): Promise<void> {
    const reader = new FrameReader();
    const buffer = new Uint8Array(READ_SIZE);
    // Nothing is handed on once the channel is closed, not even the rest of the chunk.
    const handlers = this.#handlers;
    const sink: FrameSink = {
      onFrame: (frame) => {
        if (!this.#closed) handlers.onFrame(frame);
      },
      onMalformed: (error) => {
        if (!this.#closed) handlers.onMalformed(error);
      },
    };
    try {
      while (!this.#closed) {
        const n = await this.#conn.read(buffer);
        if (n === null) break;
        reader.read(buffer.subarray(0, n), sink);
      }
      if (!this.#closed) {
        for (const result of reader.end()) {
          if (!result.ok) this.#handlers.onMalformed(result.error);
        }
      }
    } catch {
      // A read on a closed or broken connection ends the loop like end of stream.
    } finally {
      this.close();
      this.#handlers.onClose();
    }
  }
}
