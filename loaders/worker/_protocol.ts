/**
 * Names and limits shared by the host and the code that runs inside a
 * sandbox process. Internal to `loaders/worker/`. This file must stay free of
 * imports: the sandbox side loads it with no npm packages and no network.
 *
 * Two kinds of connection, each one JSON object per line over a Unix socket:
 *
 * - control, between the host and a sandbox process's main thread
 *   (`sandbox_main.ts`): spawn, stop, ping; hello, pong, error, flood;
 * - cell, between the host and one plugin's Worker (`worker_shim.ts`), on
 *   the socket of the Worker's own slot: calls, replies, requests, logs.
 *
 * @module
 */

/** The lifecycle hooks a plugin may export (same list as the runtime's). */
export const HOOK_NAMES = [
  "onInstall",
  "onLoad",
  "onActivate",
  "onDeactivate",
  "onUnload",
  "onUninstall",
] as const;

/** What the host asks a cell to run with a `call` message. */
export const CALL_OPS = ["invoke", "hook", "config", "pre", "post"] as const;

/** What a cell may ask the host with a `req` message. */
export const REQUEST_OPS = [
  "state.get",
  "state.set",
  "state.delete",
  "state.list",
  "config.get",
  "config.set",
  "config.getAll",
] as const;

/** Log levels a cell may use. */
export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;

/** Default cap on one message, in UTF-16 code units of its JSON text. */
export const DEFAULT_MAX_MESSAGE_CHARS = 4 * 1024 * 1024;

/** Messages a cell may send beyond its credit (one per host message), per second (host side); and stray posts a Worker may make to its process's main thread. */
export const FLOOD_RATE_PER_SECOND = 1000;

/** The burst a cell may send at once beyond its credit. */
export const FLOOD_BURST = 2000;

/** The longest log line a cell sends; the host cuts longer ones again. */
export const MAX_LOG_CHARS = 8192;
