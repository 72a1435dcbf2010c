/**
 * An MCP server transport over a pair of byte streams (by default the
 * process's stdin and stdout), newline-delimited JSON-RPC. Unlike the SDK's
 * Node-stream `StdioServerTransport`, it closes when its input ends, so
 * `cortex mcp serve` exits when the agent hangs up.
 *
 * @module
 */
import { deserializeMessage, type JSONRPCMessage, type Transport } from "../_sdk.ts";
import { type ChunkSource, forEachLine, stdinChunks, streamChunks } from "../_lines.ts";
import { queueWrite } from "../_write_line.ts";

/** The streams to speak over. */
export interface StreamTransportOptions {
  /** Where requests arrive (default: the process's stdin, read directly). */
  input?: ReadableStream<Uint8Array>;
  /** Where answers go (default: the process's stdout, written synchronously). */
  output?: WritableStream<Uint8Array>;
  /** The longest accepted message line, in characters (default 16 MiB). */
  maxMessageLength?: number;
}

/**
 * Serves one MCP session over two streams.
 *
 * @example
 * ```ts
 * import { StreamServerTransport } from "./stream_transport.ts";
 * const transport = new StreamServerTransport(); // stdin and stdout
 * // await server.connect(transport);
 * ```
 */
export class StreamServerTransport implements Transport {
  /** Set by the SDK: called once, when the input ends or `close()` is called. */
  onclose?: () => void;
  /** Set by the SDK: called for a line that is not JSON-RPC. */
  onerror?: (error: Error) => void;
  /** Set by the SDK: called for each message. */
  onmessage?: (message: JSONRPCMessage) => void;

  #input: ChunkSource;
  // Unset when writing to the process's stdout, which is written synchronously.
  #writer?: WritableStreamDefaultWriter<Uint8Array>;
  #maxMessageLength: number;
  #stop = new AbortController();
  #reading?: Promise<void>;
  #closed = false;
  #encoder = new TextEncoder();

  /** Binds the streams; reading starts with `start()`. */
  constructor(options: StreamTransportOptions = {}) {
    this.#input = options.input ? streamChunks(options.input) : stdinChunks();
    this.#writer = options.output?.getWriter();
    this.#maxMessageLength = options.maxMessageLength ?? 16 * 1024 * 1024;
  }

  /** Starts reading messages. */
  start(): Promise<void> {
    this.#reading = this.#read();
    return Promise.resolve();
  }

  /** Writes one message line. */
  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("the MCP session is closed"));
    const bytes = this.#encoder.encode(JSON.stringify(message) + "\n");
    if (this.#writer) return queueWrite(this.#writer, bytes, (error) => this.onerror?.(error));
    try {
      writeAllSync(bytes);
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Stops reading, closes the output, and reports the close. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stop.abort();
    // A stdin read cannot be cancelled; waiting for it would hang until the agent writes or hangs up.
    if (this.#writer) await this.#reading;
    await this.#writer?.close().catch(() => {});
    this.onclose?.();
  }

  #receive(line: string): void {
    if (line.trim() === "") return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch {
      this.onerror?.(new Error("a line on the input is not a JSON-RPC message"));
      return;
    }
    this.onmessage?.(message);
  }

  async #read(): Promise<void> {
    try {
      await forEachLine(this.#input, (line) => this.#receive(line), {
        maxLineLength: this.#maxMessageLength,
        longLines: "throw",
        signal: this.#stop.signal,
      });
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
    // The input ended (or broke framing): the session is over.
    if (!this.#closed) queueMicrotask(() => void this.close());
  }
}

/**
 * Writes to stdout synchronously, as Node does for pipes: a whole message in
 * one or a few syscalls, with none of the per-write promise round trips of
 * `Deno.stdout.writable` on this hot path.
 */
function writeAllSync(bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) offset += Deno.stdout.writeSync(bytes.subarray(offset));
}
