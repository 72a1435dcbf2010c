/**
 * Splits a byte stream into text lines, with a cap on line length so a
 * process that never writes a newline cannot grow the host's memory.
 * Internal to `mcp-bridge/`.
 *
 * @module
 */

/** What to do with a line longer than the cap. */
export type LongLinePolicy = "truncate" | "throw";

/** Yields each line of `stream` (without its `\n` or `\r\n`), the last one even without a newline. */
export async function* readLines(
  stream: ReadableStream<Uint8Array>,
  options: { maxLineLength: number; longLines: LongLinePolicy; signal?: AbortSignal },
): AsyncGenerator<string> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  const onAbort = () => void reader.cancel().catch(() => {});
  options.signal?.addEventListener("abort", onAbort, { once: true });
  let pending = "";
  // While a long line is being dropped, text up to its newline is discarded.
  let skipping = false;
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      pending += value;
      let newline = pending.indexOf("\n");
      while (newline !== -1) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        if (skipping) skipping = false;
        else yield line.endsWith("\r") ? line.slice(0, -1) : line;
        newline = pending.indexOf("\n");
      }
      if (pending.length > options.maxLineLength) {
        if (options.longLines === "throw") {
          throw new RangeError(`a line exceeded ${options.maxLineLength} characters`);
        }
        if (!skipping) yield pending.slice(0, options.maxLineLength) + " [truncated]";
        skipping = true;
        pending = "";
      }
    }
    if (pending.length > 0 && !skipping) yield pending;
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
