/**
 * The daemon: a hono app on 127.0.0.1 with a REST API (bearer token), a
 * dashboard, and a loop that follows changes other processes make.
 *
 * @example
 * ```ts ignore
 * import { startDaemon } from "./mod.ts";
 * const daemon = await startDaemon(runtime, { port: 0 });
 * console.log(daemon.url);
 * await daemon.close();
 * ```
 *
 * @module
 */
export { type AppOptions, createApp, type DaemonApp } from "./app.ts";
export { type Daemon, type DaemonOptions, startDaemon } from "./daemon.ts";
export { Reconciler } from "./reconcile.ts";
export { runtimeToolSource } from "./mcp_source.ts";
export { ensureToken, tokenMatches } from "./token.ts";
