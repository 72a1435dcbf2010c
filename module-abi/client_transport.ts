/**
 * The client's byte pipe to the host's Unix socket: `Deno.connect` on Deno,
 * `node:net` elsewhere. Deno runs `node:net` too, but through an emulation
 * layer that added about 15 µs to every round trip in the bench, so Deno gets
 * its own native path.
 *
 * @module
 */
import net from "node:net";

/** What the transport tells its owner. */
export interface TransportHandlers {
  /** Bytes arrived; the chunk is only valid during the call. */
  onData(chunk: Uint8Array): void;
  /** The connection ended, by either side or by an error; called once. */
  onClose(error?: Error): void;
}

/** A connected byte pipe. */
export interface Transport {
  /** Queues bytes; they are written in order. */
  write(bytes: Uint8Array): void;
  /** Closes after everything queued has been written. */
  close(): void;
}

type DenoLike = { connect?: typeof Deno.connect };

/**
 * Connects to the Unix socket at `path`.
 *
 * @example
 * ```ts ignore
 * import { connectUnix } from "./client_transport.ts";
 * const transport = connectUnix("/run/cortex/m.sock", {
 *   onData: (chunk) => console.log(chunk.length),
 *   onClose: () => console.log("closed"),
 * });
 * transport.write(new TextEncoder().encode("{}\n"));
 * ```
 */
export function connectUnix(path: string, handlers: TransportHandlers): Transport {
  const deno = (globalThis as { Deno?: DenoLike }).Deno;
  return deno?.connect ? denoTransport(deno.connect, path, handlers) : nodeTransport(path, handlers);
}

function denoTransport(
  connect: typeof Deno.connect,
  path: string,
  handlers: TransportHandlers,
): Transport {
  let conn: Deno.Conn | undefined;
  let queue: Uint8Array[] = [];
  let writing = false;
  let closing = false;
  let done = false;
  const finish = (error?: Error) => {
    if (done) return;
    done = true;
    try {
      conn?.close();
    } catch {
      // Already closed.
    }
    handlers.onClose(error);
  };
  const flush = async (to: Deno.Conn) => {
    writing = true;
    try {
      while (queue.length > 0 && !done) {
        const batch = queue.length === 1 ? queue[0] : join(queue);
        queue = [];
        let at = 0;
        while (at < batch.length) at += await to.write(batch.subarray(at));
      }
    } catch (error) {
      return finish(error as Error);
    } finally {
      writing = false;
    }
    if (closing) finish();
  };
  const read = async (from: Deno.Conn) => {
    const buffer = new Uint8Array(65_536);
    try {
      while (!done) {
        const n = await from.read(buffer);
        if (n === null) break;
        handlers.onData(buffer.subarray(0, n));
      }
      finish();
    } catch (error) {
      finish(done ? undefined : error as Error);
    }
  };
  connect({ transport: "unix", path }).then((connected) => {
    conn = connected;
    if (queue.length > 0 || closing) flush(connected);
    read(connected);
  }, (error) => finish(error));
  return {
    write(bytes) {
      if (done || closing) return;
      queue.push(bytes);
      if (conn && !writing) flush(conn);
    },
    close() {
      if (closing) return;
      closing = true;
      if (conn && !writing) flush(conn);
    },
  };
}

function nodeTransport(path: string, handlers: TransportHandlers): Transport {
  const socket = net.createConnection({ path });
  let done = false;
  const finish = (error?: Error) => {
    if (done) return;
    done = true;
    handlers.onClose(error);
  };
  socket.on("data", (chunk: Uint8Array) => handlers.onData(chunk));
  socket.on("error", (error: Error) => finish(error));
  socket.on("close", () => finish());
  return {
    write: (bytes) => void socket.write(bytes),
    close: () => void socket.destroySoon(),
  };
}

function join(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
