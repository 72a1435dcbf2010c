/**
 * Deno permission flags for a JavaScript or TypeScript MCP server, derived
 * from the plugin's capabilities.
 *
 * @module
 */
import { CortexError } from "../../runtime/errors.ts";

/** Where the plugin may read and write, and what it must never reach. */
export interface DenoPermissionOptions {
  /** The plugin's own folder: always readable. */
  pluginDir: string;
  /** The plugin's data folder: readable, and writable with an `fs:write`, `fs:edit` or `fs:delete` grant. */
  dataDir?: string;
  /** More folders the server may read, such as the npm package cache for an `npm:` server. */
  extraRead?: string[];
  /** Hosts (`host[:port]`) denied even with a network grant, such as the runtime's own HTTP API. */
  denyNet?: string[];
  /** Paths denied even inside a granted folder, such as the runtime's home. */
  denyRead?: string[];
}

const WRITE_CAPABILITIES = ["fs:write", "fs:edit", "fs:delete"];
const NET_CAPABILITIES = ["network:fetch", "net:outbound", "net:inbound"];

/**
 * Turns capabilities into `deno run` flags: scoped file access to the plugin's
 * own folders, the network only with `network:fetch`, `net:outbound` or
 * `net:inbound`, subprocesses only with `shell:run`, and never a prompt.
 *
 * `--allow-env` is always given: the child's environment is already cut down
 * to what the manifest names when it is spawned, so reading it leaks nothing.
 *
 * @example
 * ```ts
 * import { denoPermissionFlags } from "./deno_permission_flags.ts";
 * const flags = denoPermissionFlags(["tools", "network:fetch"], { pluginDir: "/p/echo" });
 * // ["--no-prompt", "--allow-env", "--allow-read=/p/echo", "--allow-net"]
 * ```
 */
export function denoPermissionFlags(
  capabilities: readonly string[],
  options: DenoPermissionOptions,
): string[] {
  const has = (names: string[]) => names.some((name) => capabilities.includes(name));
  const readable = [options.pluginDir, options.dataDir, ...(options.extraRead ?? [])]
    .filter((path): path is string => typeof path === "string" && path.length > 0);
  const flags = ["--no-prompt", "--allow-env", `--allow-read=${joinList(readable)}`];
  if (options.dataDir && has(WRITE_CAPABILITIES)) {
    flags.push(`--allow-write=${joinList([options.dataDir])}`);
  }
  if (has(NET_CAPABILITIES)) flags.push("--allow-net");
  if (options.denyNet?.length) flags.push(`--deny-net=${joinList(options.denyNet)}`);
  if (options.denyRead?.length) flags.push(`--deny-read=${joinList(options.denyRead)}`);
  if (has(["shell:run"])) flags.push("--allow-run");
  return flags;
}

function joinList(items: string[]): string {
  for (const item of items) {
    // Deno splits these lists on commas, so a comma would widen or break the grant.
    if (item.includes(",")) {
      throw new CortexError("mcp_manifest_invalid", `a permission path may not contain a comma: ${item}`);
    }
  }
  return items.join(",");
}
