/**
 * Splits a byte stream into text lines, with a cap on line length so a
 * process that never writes a newline cannot grow the host's memory.
 * A plain read loop with a callback: on the hot path of every MCP message,
 * an extra stream stage or an async generator costs measurable microseconds
 * (reading stdin directly instead of through `Deno.stdin.readable` took the
 * stdio server from about 1.1x to 1.0x of the bare SDK server in
 * `bench/mcp_bench.ts`). {@link LineSplitter} serves Node-style `data` events.
 * Internal to `mcp-bridge/`.
 *
 * @module
 */

/** Where bytes come from: `null` at the end. */
export interface ChunkSource {
  /** The next chunk; it is decoded before the next call, so a reused buffer is fine. */
  read(): Promise<Uint8Array | null>;
  /** Stops the source; a pending read then ends. */
  cancel(): Promise<void>;
}

/** Reads a web stream. */
export function streamChunks(stream: ReadableStream<Uint8Array>): ChunkSource {
  const reader = stream.getReader();
  return {
    read: async () => {
      const { value, done } = await reader.read();
      return done ? null : value;
    },
    cancel: () => reader.cancel().catch(() => {}),
  };
}

/**
 * Reads the process's stdin straight from `Deno.stdin.read`. A read cannot be
 * cancelled: after `cancel()` the pending one ends when stdin next has data
 * or closes.
 */
export function stdinChunks(): ChunkSource {
  const buffer = new Uint8Array(64 * 1024);
  let cancelled = false;
  return {
    read: async () => {
      if (cancelled) return null;
      const n = await Deno.stdin.read(buffer);
      return n === null || cancelled ? null : buffer.subarray(0, n);
    },
    cancel: () => {
      cancelled = true;
      return Promise.resolve();
    },
  };
}

/** What to do with a line longer than the cap. */
export type LongLinePolicy = "truncate" | "throw";

/** Options for {@link forEachLine}. */
export interface LineOptions {
  /** The longest line, in characters. */
  maxLineLength: number;
  /** `throw` ends the read with a RangeError; `truncate` passes the line cut, and drops the rest of it. */
  longLines: LongLinePolicy;
  /** Stops reading when aborted (for {@link forEachLine}). */
  signal?: AbortSignal;
}

/**
 * Cuts text pushed in arbitrary pieces into lines (without `\n` or `\r\n`).
 * Throws a RangeError from `push` when a line passes the cap under `throw`.
 */
export class LineSplitter {
  #onLine: (line: string) => void;
  #options: LineOptions;
  #pending = "";
  // While a long line is being dropped, text up to its newline is discarded.
  #skipping = false;

  /** Emits each complete line to `onLine`. */
  constructor(onLine: (line: string) => void, options: LineOptions) {
    this.#onLine = onLine;
    this.#options = options;
  }

  /** Adds text; emits every line it completes. */
  push(text: string): void {
    let start = 0;
    let newline = text.indexOf("\n");
    if (newline !== -1 && this.#pending.length > 0) {
      this.#emit(this.#pending + text.slice(0, newline));
      this.#pending = "";
      start = newline + 1;
      newline = text.indexOf("\n", start);
    }
    while (newline !== -1) {
      this.#emit(text.slice(start, newline));
      start = newline + 1;
      newline = text.indexOf("\n", start);
    }
    this.#pending += start === 0 ? text : text.slice(start);
    if (this.#pending.length > this.#options.maxLineLength) {
      if (this.#options.longLines === "throw") {
        throw new RangeError(`a line exceeded ${this.#options.maxLineLength} characters`);
      }
      if (!this.#skipping) this.#onLine(this.#pending.slice(0, this.#options.maxLineLength) + " [truncated]");
      this.#skipping = true;
      this.#pending = "";
    }
  }

  /** Emits the last line, if the text did not end with a newline. */
  end(): void {
    if (this.#pending.length > 0 && !this.#skipping) this.#onLine(this.#pending);
    this.#pending = "";
  }

  #emit(line: string): void {
    if (this.#skipping) this.#skipping = false;
    else this.#onLine(line.endsWith("\r") ? line.slice(0, -1) : line);
  }
}

/**
 * Calls `onLine` with each line of `source`, the last one even without a
 * newline; resolves when the source ends.
 */
export async function forEachLine(
  source: ChunkSource,
  onLine: (line: string) => void,
  options: LineOptions,
): Promise<void> {
  const decoder = new TextDecoder();
  const lines = new LineSplitter(onLine, options);
  const onAbort = () => void source.cancel();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    while (true) {
      const value = await source.read();
      if (value === null) break;
      lines.push(decoder.decode(value, { stream: true }));
    }
    lines.push(decoder.decode());
    lines.end();
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    await source.cancel();
  }
}
