/**
 * An incremental frame reader: feed it byte chunks of any size (one byte at
 * a time works) and it hands back each frame, or the error for each bad line.
 *
 * @module
 */
import { ModuleWireError } from "../errors.ts";
import { decodeFrame, decodeFrameBody } from "./decode.ts";
import { MAX_FRAME_BYTES, type ModuleFrame } from "./frame.ts";

const NEWLINE = 0x0a;
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** What the reader makes of one line: a frame, or the error that line earned. */
export type FrameReadResult =
  | { readonly ok: true; readonly frame: ModuleFrame }
  | { readonly ok: false; readonly error: ModuleWireError };

/**
 * Splits a byte stream into frames.
 *
 * A line that passes 1 MiB is refused with `frame_too_large` as soon as its
 * first 1,048,576 bytes hold no newline, without buffering more of it; the
 * reader then drops bytes up to the next newline and resynchronizes there.
 * Whether the stream is still usable is the caller's choice (the socket host
 * closes the connection on any error). Other bad lines are reported with the
 * decoder's codes, one result per line, and reading goes on.
 *
 * @example
 * ```ts
 * import { FrameReader } from "./reader.ts";
 * const reader = new FrameReader();
 * const bytes = new TextEncoder().encode('{"type":"event","name":"tick","payload":1}\n');
 * for (const byte of bytes) {
 *   for (const result of reader.push(Uint8Array.of(byte))) {
 *     if (result.ok) console.log(result.frame.type); // "event"
 *   }
 * }
 * ```
 */
export class FrameReader {
  #buffer = new Uint8Array(4096);
  #length = 0;
  #discarding = false;

  /** Bytes held for the frame in progress (never more than 1 MiB). */
  get buffered(): number {
    return this.#length;
  }

  /** Feeds one chunk; returns the results of every line it completes, in order. */
  push(chunk: Uint8Array): FrameReadResult[] {
    const results: FrameReadResult[] = [];
    let start = 0;
    // First finish the line in progress (or the oversized line being skipped).
    if (this.#length > 0 || this.#discarding) {
      const end = chunk.indexOf(NEWLINE);
      if (end === -1) {
        this.#hold(chunk, results);
        return results;
      }
      start = end + 1;
      if (this.#discarding) this.#discarding = false;
      else if (this.#hold(chunk.subarray(0, start), results)) {
        results.push(decodeLine(this.#buffer.subarray(0, this.#length)));
        this.#length = 0;
      }
    }
    const last = chunk.lastIndexOf(NEWLINE);
    if (last >= start) this.#completeLines(chunk, start, last, results);
    if (last + 1 < chunk.length) this.#hold(chunk.subarray(Math.max(start, last + 1)), results);
    return results;
  }

  /**
   * Ends the stream: a partial frame still held is reported as
   * `frame_unterminated`. The reader is empty and reusable afterwards.
   */
  end(): FrameReadResult[] {
    const held = this.#length > 0;
    this.#length = 0;
    this.#discarding = false;
    if (!held) return [];
    return [{
      ok: false,
      error: new ModuleWireError("frame_unterminated", "the stream ended inside a frame"),
    }];
  }

  // The whole lines in chunk[start..last] (last is a newline). One UTF-8 decode for all of
  // them is much cheaper than one per line; invalid UTF-8 anywhere falls back to per line,
  // so the error lands on the right line.
  #completeLines(chunk: Uint8Array, start: number, last: number, results: FrameReadResult[]) {
    let text: string | undefined;
    try {
      text = decoder.decode(chunk.subarray(start, last + 1));
    } catch {
      text = undefined;
    }
    let at = start;
    let char = 0;
    while (at <= last) {
      const end = chunk.indexOf(NEWLINE, at);
      const size = end + 1 - at;
      if (text === undefined || size > MAX_FRAME_BYTES || size < 2) {
        results.push(decodeLine(chunk.subarray(at, end + 1)));
      } else {
        const charEnd = text.indexOf("\n", char);
        results.push(decodeBody(text.slice(char, charEnd)));
      }
      if (text !== undefined) char = text.indexOf("\n", char) + 1;
      at = end + 1;
    }
  }

  // Appends to the frame in progress; false when that passes the limit (the line is refused).
  #hold(piece: Uint8Array, results: FrameReadResult[]): boolean {
    if (this.#discarding) return false;
    // A line of n bytes without its newline is already over the limit once n reaches it.
    const complete = piece[piece.length - 1] === NEWLINE;
    const limit = complete ? MAX_FRAME_BYTES : MAX_FRAME_BYTES - 1;
    if (this.#length + piece.length > limit) {
      this.#length = 0;
      this.#discarding = !complete;
      results.push({
        ok: false,
        error: new ModuleWireError(
          "frame_too_large",
          `a frame is at most ${MAX_FRAME_BYTES} bytes, newline included`,
        ),
      });
      return false;
    }
    this.#grow(this.#length + piece.length);
    this.#buffer.set(piece, this.#length);
    this.#length += piece.length;
    return true;
  }

  #grow(needed: number): void {
    if (needed <= this.#buffer.length) return;
    let size = this.#buffer.length;
    while (size < needed) size *= 2;
    const next = new Uint8Array(Math.min(size, MAX_FRAME_BYTES));
    next.set(this.#buffer.subarray(0, this.#length));
    this.#buffer = next;
  }
}

function decodeLine(line: Uint8Array): FrameReadResult {
  try {
    return { ok: true, frame: decodeFrame(line) };
  } catch (error) {
    if (error instanceof ModuleWireError) return { ok: false, error };
    throw error;
  }
}

function decodeBody(text: string): FrameReadResult {
  try {
    return { ok: true, frame: decodeFrameBody(text) };
  } catch (error) {
    if (error instanceof ModuleWireError) return { ok: false, error };
    throw error;
  }
}
