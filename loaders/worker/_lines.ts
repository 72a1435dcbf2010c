/**
 * Newline-delimited text over a byte connection, both ways, used by the host
 * and by the sandbox process's main thread. Internal to `loaders/worker/`;
 * free of imports so the sandbox side loads it with nothing else.
 *
 * Reading caps each line: a peer that never writes a newline cannot grow the
 * reader's memory, and a line over the cap is skipped whole and reported.
 * Writing batches every line queued in the same task into one write.
 *
 * @module
 */

/** Something bytes can be read from (a `Deno.Conn`). */
export interface ByteReader {
  /** Reads into `p`; `null` at the end. */
  read(p: Uint8Array): Promise<number | null>;
}

/** Something bytes can be written to (a `Deno.Conn`). */
export interface ByteWriter {
  /** Writes some of `p`; returns how many bytes were written. */
  write(p: Uint8Array): Promise<number>;
}

/** Options for {@link readLines}. */
export interface ReadLinesOptions {
  /** The longest line, in UTF-16 code units. */
  maxChars: number;
  /** Called for a line longer than `maxChars` (it is skipped), with its length and first characters. */
  onOversized(size: number, head: string): void;
}

/**
 * Calls `onLine` for every line read from `source` until it ends or fails.
 * Resolves at the end of the stream; a read error also ends it.
 */
export async function readLines(
  source: ByteReader,
  onLine: (line: string) => void,
  options: ReadLinesOptions,
): Promise<void> {
  const decoder = new TextDecoder();
  const buffer = new Uint8Array(64 * 1024);
  let partial = "";
  let skipping = false;
  let skipped = 0;
  let head = "";
  while (true) {
    let n: number | null;
    try {
      n = await source.read(buffer);
    } catch {
      return;
    }
    if (n === null) return;
    const text = decoder.decode(buffer.subarray(0, n), { stream: true });
    let start = 0;
    while (true) {
      const newline = text.indexOf("\n", start);
      if (newline === -1) break;
      const piece = text.slice(start, newline);
      start = newline + 1;
      if (skipping) {
        options.onOversized(skipped + piece.length, head);
        skipping = false;
        skipped = 0;
        continue;
      }
      const line = partial === "" ? piece : partial + piece;
      partial = "";
      if (line.length > options.maxChars) options.onOversized(line.length, line.slice(0, 64));
      else if (line !== "") onLine(line);
    }
    const rest = text.slice(start);
    if (skipping) {
      skipped += rest.length;
    } else if (partial.length + rest.length > options.maxChars) {
      skipping = true;
      skipped = partial.length + rest.length;
      head = (partial + rest.slice(0, 64)).slice(0, 64);
      partial = "";
    } else {
      partial += rest;
    }
  }
}

/** Writes lines, batching those queued in the same task into one write. */
export class LineWriter {
  #sink: ByteWriter;
  #queue: string[] = [];
  #scheduled = false;
  #closed = false;
  #encoder = new TextEncoder();
  #idle: Promise<void> = Promise.resolve();

  /** @param sink Where the bytes go. */
  constructor(sink: ByteWriter) {
    this.#sink = sink;
  }

  /** Whether a write failed (the peer is gone); later lines are dropped. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Queues one line (without its newline). */
  write(line: string): void {
    if (this.#closed) return;
    this.#queue.push(line);
    if (!this.#scheduled) {
      this.#scheduled = true;
      this.#idle = this.#idle.then(() => this.#flush());
    }
  }

  /** Resolves when every queued line has been written or dropped. */
  async drained(): Promise<void> {
    await this.#idle;
  }

  async #flush(): Promise<void> {
    while (this.#queue.length > 0 && !this.#closed) {
      const lines = this.#queue;
      this.#queue = [];
      this.#scheduled = false;
      let bytes = this.#encoder.encode(lines.join("\n") + "\n");
      try {
        while (bytes.length > 0) {
          const n = await this.#sink.write(bytes);
          bytes = bytes.subarray(n);
        }
      } catch {
        this.#closed = true;
        this.#queue = [];
      }
    }
    this.#scheduled = false;
  }
}
