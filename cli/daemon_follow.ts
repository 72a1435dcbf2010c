import type { PluginRow } from "../runtime/store/mod.ts";
import type { Runtime } from "../runtime/runtime.ts";

/**
 * Waits until the daemon has acted on a change the CLI wrote to the table
 * (it looks about once a second), and returns the row as it then stands.
 */
export async function waitForDaemon(
  runtime: Runtime,
  name: string,
  done: (row: PluginRow | undefined) => boolean,
  options: { timeoutMs?: number } = {},
): Promise<PluginRow | undefined> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  let row = runtime.store.plugins.get(name);
  while (!done(row) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    row = runtime.store.plugins.get(name);
  }
  return row;
}

/** Whether the daemon has finished loading (or failing to load) a plugin. */
export function settledLoaded(row: PluginRow | undefined): boolean {
  return row !== undefined && (row.status === "active" || row.status === "error");
}

/** Whether the daemon has finished unloading a plugin. */
export function settledUnloaded(row: PluginRow | undefined): boolean {
  return row === undefined || row.status === "unloaded" || row.status === "error";
}
