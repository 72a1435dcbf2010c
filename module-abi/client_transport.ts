/**
 * The client's pipe to the host's Unix socket, bytes in and text out:
 * `Deno.connect` (with a {@link WriteQueue}) on Deno, `node:net` elsewhere. Deno runs `node:net` too, but through an emulation
 * layer that added about 15 µs to every round trip in the bench, so Deno gets
 * its own native path.
 *
 * @module
 */
import net from "node:net";
import { WriteQueue } from "./write_queue.ts";

/** What the transport tells its owner. */
export interface TransportHandlers {
  /** Bytes arrived; the chunk is only valid during the call. */
  onData(chunk: Uint8Array): void;
  /** The connection ended, by either side or by an error; called once. */
  onClose(error?: Error): void;
}

/** A connected text pipe. */
export interface Transport {
  /** Queues text; it is written in order, and text queued in one tick leaves in one write. */
  write(text: string): void;
  /** Writes what is queued now instead of at the end of the tick. */
  flush(): void;
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
 * transport.write("{}\n");
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
  let writes: WriteQueue | undefined;
  let early = "";
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
    writes = new WriteQueue((bytes) => connected.write(bytes), finish);
    if (early) writes.push(early);
    if (closing) writes.flushed.then(() => finish());
    read(connected);
  }, (error) => finish(error));
  return {
    write(text) {
      if (done || closing) return;
      if (writes) writes.push(text);
      else early += text;
    },
    flush() {
      writes?.flush();
    },
    close() {
      if (closing) return;
      closing = true;
      writes?.flushed.then(() => finish());
    },
  };
}

function nodeTransport(path: string, handlers: TransportHandlers): Transport {
  const socket = net.createConnection({ path });
  let done = false;
  let closing = false;
  let queued = "";
  const finish = (error?: Error) => {
    if (done) return;
    done = true;
    handlers.onClose(error);
  };
  // Text queued in one tick goes to the socket in one write.
  const flush = () => {
    const text = queued;
    queued = "";
    if (text && !done) socket.write(text);
  };
  socket.on("data", (chunk: Uint8Array) => handlers.onData(chunk));
  socket.on("error", (error: Error) => finish(error));
  socket.on("close", () => finish());
  return {
    write(text) {
      if (done || closing) return;
      if (queued === "") queueMicrotask(flush);
      queued += text;
    },
    flush,
    close() {
      if (closing) return;
      closing = true;
      flush();
      socket.destroySoon();
    },
  };
}
