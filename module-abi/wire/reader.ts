/**
 * An incremental frame reader: feed it byte chunks of any size (one byte at
 * a time works) and it hands back each frame, or the error for each bad line.
 *
 * @module
 */
import { ModuleWireError } from "../errors.ts";
import { decodeFrame, decodeFrameBody } from "./decode.ts";
import { MAX_FRAME_BYTES, type ModuleFrame } from "./frame.ts";
import { holdsProblemPattern, lineMayHoldJsonProblem } from "./json_value.ts";
import { decodeUtf8 } from "./utf8.ts";

const NEWLINE = 0x0a;
const EMPTY_LINE = Uint8Array.of(NEWLINE);

/** What the reader makes of one line: a frame, or the error that line earned. */
export type FrameReadResult =
  | { readonly ok: true; readonly frame: ModuleFrame }
  | { readonly ok: false; readonly error: ModuleWireError };

/** Gets what {@link FrameReader.read} makes of each line, in stream order. */
export interface FrameSink {
  /** A line held a valid frame. */
  onFrame(frame: ModuleFrame): void;
  /** A line was malformed (or too long); the reader has skipped it. */
  onMalformed(error: ModuleWireError): void;
}

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
    this.read(chunk, {
      onFrame: (frame) => results.push({ ok: true, frame }),
      onMalformed: (error) => results.push({ ok: false, error }),
    });
    return results;
  }

  /**
   * Feeds one chunk, handing what each completed line holds to `sink` as soon
   * as that line is decoded: {@link push} without a result object per line.
   * Errors thrown by the sink propagate.
   */
  read(chunk: Uint8Array, sink: FrameSink): void {
    let start = 0;
    // First finish the line in progress (or the oversized line being skipped).
    if (this.#length > 0 || this.#discarding) {
      const end = chunk.indexOf(NEWLINE);
      if (end === -1) {
        this.#hold(chunk, sink);
        return;
      }
      start = end + 1;
      if (this.#discarding) this.#discarding = false;
      else if (this.#hold(chunk.subarray(0, start), sink)) {
        const line = this.#buffer.subarray(0, this.#length);
        this.#length = 0;
        deliverLine(line, sink);
      }
    }
    const last = chunk.lastIndexOf(NEWLINE);
    if (last >= start) this.#completeLines(chunk, start, last, sink);
    if (last + 1 < chunk.length) this.#hold(chunk.subarray(Math.max(start, last + 1)), sink);
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
  // them, then the lines are split in the text: much cheaper than a decode per line. When the
  // span is over 1 MiB (a line may be too long) or not valid UTF-8, each line is decoded from
  // its own bytes instead, so every error lands on the right line.
  #completeLines(chunk: Uint8Array, start: number, last: number, sink: FrameSink) {
    const span = start === 0 && last === chunk.length - 1 ? chunk : chunk.subarray(start, last + 1);
    const text = span.length <= MAX_FRAME_BYTES ? decodeUtf8(span) : undefined;
    if (text === undefined) {
      let at = start;
      while (at <= last) {
        const end = chunk.indexOf(NEWLINE, at);
        deliverLine(chunk.subarray(at, end + 1), sink);
        at = end + 1;
      }
      return;
    }
    // One look at the whole text for what could make a line's JSON unfit for the wire.
    const pattern = holdsProblemPattern(text);
    let at = 0;
    while (at < text.length) {
      const end = text.indexOf("\n", at);
      // An empty line is 1 byte: too short, reported by the byte decoder's own check.
      if (end === at) deliverLine(EMPTY_LINE, sink);
      else deliverBody(text.slice(at, end), pattern, sink);
      at = end + 1;
    }
  }

  // Appends to the frame in progress; false when that passes the limit (the line is refused).
  #hold(piece: Uint8Array, sink: FrameSink): boolean {
    if (this.#discarding) return false;
    // A line of n bytes without its newline is already over the limit once n reaches it.
    const complete = piece[piece.length - 1] === NEWLINE;
    const limit = complete ? MAX_FRAME_BYTES : MAX_FRAME_BYTES - 1;
    if (this.#length + piece.length > limit) {
      this.#length = 0;
      this.#discarding = !complete;
      sink.onMalformed(
        new ModuleWireError(
          "frame_too_large",
          `a frame is at most ${MAX_FRAME_BYTES} bytes, newline included`,
        ),
      );
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

// The sink runs outside the try, so an error it throws is never taken for a decoding error.
function deliverLine(line: Uint8Array, sink: FrameSink): void {
  let frame: ModuleFrame;
  try {
    frame = decodeFrame(line);
  } catch (error) {
    if (error instanceof ModuleWireError) return sink.onMalformed(error);
    throw error;
  }
  sink.onFrame(frame);
}

function deliverBody(text: string, pattern: boolean, sink: FrameSink): void {
  let frame: ModuleFrame;
  try {
    frame = decodeFrameBody(text, lineMayHoldJsonProblem(text, pattern));
  } catch (error) {
    if (error instanceof ModuleWireError) return sink.onMalformed(error);
    throw error;
  }
  sink.onFrame(frame);
}
