/**
 * An MCP server transport over a pair of byte streams (by default the
 * process's stdin and stdout), newline-delimited JSON-RPC. Unlike the SDK's
 * Node-stream `StdioServerTransport`, it closes when its input ends, so
 * `cortex mcp serve` exits when the agent hangs up.
 *
 * @module
 */
import { deserializeMessage, type JSONRPCMessage, type Transport } from "../_sdk.ts";
import { readLines } from "../_lines.ts";

/** The streams to speak over. */
export interface StreamTransportOptions {
  /** Where requests arrive (default `Deno.stdin.readable`). */
  input?: ReadableStream<Uint8Array>;
  /** Where answers go (default `Deno.stdout.writable`). */
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

  #input: ReadableStream<Uint8Array>;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #maxMessageLength: number;
  #stop = new AbortController();
  #reading?: Promise<void>;
  #closed = false;
  #encoder = new TextEncoder();

  /** Binds the streams; reading starts with `start()`. */
  constructor(options: StreamTransportOptions = {}) {
    this.#input = options.input ?? Deno.stdin.readable;
    this.#writer = (options.output ?? Deno.stdout.writable).getWriter();
    this.#maxMessageLength = options.maxMessageLength ?? 16 * 1024 * 1024;
  }

  /** Starts reading messages. */
  start(): Promise<void> {
    this.#reading = this.#read();
    return Promise.resolve();
  }

  /** Writes one message line. */
  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) throw new Error("the MCP session is closed");
    await this.#writer.write(this.#encoder.encode(JSON.stringify(message) + "\n"));
  }

  /** Stops reading, closes the output, and reports the close. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stop.abort();
    await this.#reading;
    await this.#writer.close().catch(() => {});
    this.onclose?.();
  }

  async #read(): Promise<void> {
    try {
      const lines = readLines(this.#input, {
        maxLineLength: this.#maxMessageLength,
        longLines: "throw",
        signal: this.#stop.signal,
      });
      for await (const line of lines) {
        if (line.trim() === "") continue;
        let message: JSONRPCMessage;
        try {
          message = deserializeMessage(line);
        } catch {
          this.onerror?.(new Error("a line on the input is not a JSON-RPC message"));
          continue;
        }
        this.onmessage?.(message);
      }
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
    // The input ended (or broke framing): the session is over.
    if (!this.#closed) queueMicrotask(() => void this.close());
  }
}
