import type { CortexError } from "../runtime/errors.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { daemonInfoPath } from "../cli/daemon_client.ts";
import { createApp } from "./app.ts";
import { Reconciler } from "./reconcile.ts";
import { ensureToken } from "./token.ts";

/** Options for {@link startDaemon}. */
export interface DaemonOptions {
  /** TCP port on 127.0.0.1 (0 picks a free one; default 4807). */
  port?: number;
  /** How often to look for changes other processes made, in ms (default 1000). */
  reconcileEveryMs?: number;
  /** The array the sandbox loader reads its forbidden ports from; the daemon adds its port. */
  daemonPorts?: number[];
  /** Called once the daemon listens. */
  onListen?: (info: { port: number; url: string }) => void;
}

/** A running daemon. */
export interface Daemon {
  /** The port it listens on. */
  port: number;
  /** Its base URL. */
  url: string;
  /** The bearer token. */
  token: string;
  /** The plugins that failed to load at start. */
  loadFailures: Map<string, CortexError>;
  /** Stops serving, unloads every plugin and closes the runtime. */
  close(): Promise<void>;
}

/**
 * Starts the daemon on 127.0.0.1 only: loads every enabled plugin, serves the
 * REST API and dashboard, and follows changes the CLI makes to the store.
 */
export async function startDaemon(runtime: Runtime, options: DaemonOptions = {}): Promise<Daemon> {
  const token = await ensureToken(runtime.home.token);
  const app = createApp(runtime, { token });
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: options.port ?? 4807,
    onListen: () => {},
  }, app.fetch);
  const port = server.addr.port;
  // Known before any plugin loads, so no sandbox is ever granted the daemon's own port.
  options.daemonPorts?.push(port);
  const loadFailures = await runtime.loadAll();
  const url = `http://127.0.0.1:${port}`;
  await Deno.writeTextFile(
    daemonInfoPath(runtime.home.root),
    JSON.stringify({ pid: Deno.pid, port, startedAt: new Date().toISOString() }) + "\n",
    { mode: 0o600 },
  );
  const reconciler = new Reconciler(runtime);
  await reconciler.prime();
  const timer = setInterval(() => reconciler.tick().catch(() => {}), options.reconcileEveryMs ?? 1000);
  runtime.emit("daemon:status", { daemon: "cortex", status: "up" });
  options.onListen?.({ port, url });
  let closed = false;
  return {
    port,
    url,
    token,
    loadFailures,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      runtime.emit("daemon:status", { daemon: "cortex", status: "down" });
      await app.close();
      await server.shutdown();
      await Deno.remove(daemonInfoPath(runtime.home.root)).catch(() => {});
      await runtime.close();
    },
  };
}
