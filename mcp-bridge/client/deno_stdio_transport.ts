/**
 * An MCP client transport over a child process's stdin and stdout, built on
 * `Deno.Command`. The SDK's own `StdioClientTransport` always passes `HOME`,
 * `USER`, `SHELL` and friends to the child; this one passes exactly the
 * spec's environment, and hands each stderr line to a callback.
 *
 * @module
 */
import { deserializeMessage, type JSONRPCMessage, type Transport } from "../_sdk.ts";
import { basename } from "node:path";
import { CortexError } from "../../runtime/errors.ts";
import { readLines } from "../_lines.ts";
import type { McpStdioSpec } from "./spec.ts";

/** Options for {@link DenoStdioTransport}. */
export interface DenoStdioTransportOptions {
  /** Receives each line the server writes to stderr. */
  onStderrLine?: (line: string) => void;
  /** The longest JSON-RPC line accepted from the server, in characters (default 16 MiB). */
  maxMessageLength?: number;
  /** How long `close()` waits for the server to exit after stdin closes, then after SIGTERM (default 2000 ms). */
  exitGraceMs?: number;
}

const MAX_STDERR_LINE = 4096;

/**
 * Starts a stdio MCP server and speaks newline-delimited JSON-RPC to it.
 *
 * @example
 * ```ts
 * import { Client } from "@modelcontextprotocol/sdk/client/index.js";
 * import { DenoStdioTransport } from "./deno_stdio_transport.ts";
 * const transport = new DenoStdioTransport(
 *   { transport: "stdio", command: "deno", args: ["run", "server.ts"], env: {} },
 *   { onStderrLine: console.error },
 * );
 * await new Client({ name: "cortex", version: "0.1.0" }).connect(transport);
 * ```
 */
export class DenoStdioTransport implements Transport {
  /** Set by the SDK: called once, when the process has exited and its output is read. */
  onclose?: () => void;
  /** Set by the SDK: called for a line that is not a JSON-RPC message. */
  onerror?: (error: Error) => void;
  /** Set by the SDK: called for each message from the server. */
  onmessage?: (message: JSONRPCMessage) => void;

  #spec: McpStdioSpec;
  #options: DenoStdioTransportOptions;
  #child?: Deno.ChildProcess;
  #writer?: WritableStreamDefaultWriter<Uint8Array>;
  #readers = new AbortController();
  #finished?: Promise<void>;
  #closed = false;
  #encoder = new TextEncoder();

  /** Prepares the transport; nothing starts until the SDK calls `start()`. */
  constructor(spec: McpStdioSpec, options: DenoStdioTransportOptions = {}) {
    this.#spec = spec;
    this.#options = options;
  }

  /** The server's process id, once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Spawns the process; throws `mcp_spawn_failed` when the command cannot start. */
  start(): Promise<void> {
    if (this.#child) return Promise.reject(new Error("DenoStdioTransport already started"));
    let child: Deno.ChildProcess;
    try {
      child = new Deno.Command(this.#spec.command, {
        args: this.#spec.args,
        cwd: this.#spec.cwd,
        env: this.#spec.env,
        clearEnv: true,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
    } catch (error) {
      const reason = error instanceof Error ? error.name : "error";
      return Promise.reject(
        new CortexError(
          "mcp_spawn_failed",
          `could not start MCP server ${basename(this.#spec.command)} (${reason})`,
          { cause: error },
        ),
      );
    }
    this.#child = child;
    this.#writer = child.stdin.getWriter();
    const stdout = this.#readStdout(child.stdout);
    const stderr = this.#readStderr(child.stderr);
    this.#finished = Promise.all([stdout, stderr, child.status]).then(() => this.#finish());
    return Promise.resolve();
  }

  /** Writes one message as a line on the server's stdin. */
  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.#writer || this.#closed) {
      throw new CortexError("mcp_connection_closed", "the MCP server process is not running");
    }
    await this.#writer.write(this.#encoder.encode(JSON.stringify(message) + "\n"));
  }

  /** Closes stdin, then escalates to SIGTERM and SIGKILL if the server lingers. */
  async close(): Promise<void> {
    const child = this.#child;
    if (!child || this.#closed) return await this.#finished;
    this.#closed = true;
    await this.#writer?.close().catch(() => {});
    const grace = this.#options.exitGraceMs ?? 2000;
    for (const signal of ["SIGTERM", "SIGKILL"] as const) {
      if (await exitsWithin(child, grace)) break;
      try {
        child.kill(signal);
      } catch {
        // It exited between the check and the kill.
      }
    }
    await child.status;
    // A grandchild may still hold the pipes open; stop reading them.
    this.#readers.abort();
    await this.#finished;
  }

  async #readStdout(stdout: ReadableStream<Uint8Array>): Promise<void> {
    try {
      const lines = readLines(stdout, {
        maxLineLength: this.#options.maxMessageLength ?? 16 * 1024 * 1024,
        longLines: "throw",
        signal: this.#readers.signal,
      });
      for await (const line of lines) {
        if (line.trim() === "") continue;
        let message: JSONRPCMessage;
        try {
          message = deserializeMessage(line);
        } catch {
          this.onerror?.(new Error("the server wrote a line that is not a JSON-RPC message"));
          continue;
        }
        this.onmessage?.(message);
      }
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      // A server that breaks framing cannot be trusted to recover it.
      try {
        this.#child?.kill("SIGKILL");
      } catch {
        // Already gone.
      }
    }
  }

  async #readStderr(stderr: ReadableStream<Uint8Array>): Promise<void> {
    try {
      const lines = readLines(stderr, {
        maxLineLength: MAX_STDERR_LINE,
        longLines: "truncate",
        signal: this.#readers.signal,
      });
      for await (const line of lines) this.#options.onStderrLine?.(line);
    } catch {
      // Logging is best effort; a broken stderr must not end the session.
    }
  }

  async #finish(): Promise<void> {
    this.#closed = true;
    // Closing stdin frees its pipe; it fails harmlessly when already closed or broken.
    await this.#writer?.close().catch(() => {});
    this.onclose?.();
  }
}

async function exitsWithin(child: Deno.ChildProcess, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([child.status.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
