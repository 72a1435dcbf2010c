/**
 * Turns a child's output stream into lines for `onLog`, with a cap on line
 * length so a module that never writes a newline cannot grow host memory.
 *
 * @module
 */

const MAX_LOG_LINE = 8192;

/**
 * Reads `stream` to its end, calling `onLine` for each line (without its
 * newline; lines over 8 KiB are cut and marked). Resolves when the stream ends
 * or `signal` aborts (then the stream is cancelled).
 *
 * @example
 * ```ts
 * import { pipeLines } from "./log_lines.ts";
 * const stream = new Blob(["one\ntwo\n"]).stream();
 * await pipeLines(stream, (line) => console.log(line));
 * ```
 */
export async function pipeLines(
  stream: ReadableStream<Uint8Array>,
  onLine: (line: string) => void,
  options: { signal?: AbortSignal } = {},
): Promise<void> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  const cancel = () => reader.cancel().catch(() => {});
  options.signal?.addEventListener("abort", cancel, { once: true });
  let line = "";
  let cut = false;
  const emit = (text: string) => {
    try {
      onLine(text);
    } catch {
      // A logging callback that throws must not stop the output from draining.
    }
  };
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      const parts = value.split("\n");
      for (let i = 0; i < parts.length; i++) {
        const last = i === parts.length - 1;
        if (!cut) line += parts[i];
        if (line.length > MAX_LOG_LINE) {
          if (!cut) emit(line.slice(0, MAX_LOG_LINE) + " [line cut]");
          line = "";
          cut = true;
        }
        if (!last) {
          if (!cut) emit(line.endsWith("\r") ? line.slice(0, -1) : line);
          line = "";
          cut = false;
        }
      }
    }
    if (line !== "" && !cut) emit(line);
  } catch {
    // A cancelled or broken pipe ends the log like end of stream.
  } finally {
    options.signal?.removeEventListener("abort", cancel);
    reader.releaseLock();
  }
}
