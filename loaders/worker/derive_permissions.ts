/**
 * From a plugin's effective capabilities and the person's scoped grants to
 * the exact Deno permissions of its Worker. Scoped, never blanket:
 *
 * | capability | permission |
 * |---|---|
 * | (always) | read its own code folder and the sandbox's own source files |
 * | any `fs:*` | also read its own data folder |
 * | `fs:write`, `fs:edit`, `fs:delete` | write its own data folder, nothing else |
 * | `network:fetch`, `net:outbound`, `net:inbound` | net: only the hosts the person granted (see `net_grants.ts`) |
 * | `shell:run` | run: only the commands the person granted |
 * | (never) | env, ffi, sys, import (remote code) |
 *
 * A capability with no grant gives no access: `network:fetch` without a host
 * grant is no network at all.
 *
 * @module
 */
import { CortexError } from "../../runtime/errors.ts";
import { filterNetGrants, type RefusedGrant } from "./net_grants.ts";

/** What {@link derivePermissions} works from. */
export interface PermissionInput {
  /** Effective capabilities. */
  capabilities: readonly string[];
  /** The person's grants: capability to hosts or commands. */
  grants: Readonly<Record<string, readonly string[]>>;
  /** The plugin's code folder. */
  pluginDir: string;
  /** The plugin's data folder. */
  dataDir: string;
}

/** Options for {@link derivePermissions}. */
export interface DeriveOptions {
  /** Files and folders of the runtime the Worker must read (its own entry module). */
  sourceReads: readonly string[];
  /** Ports of the runtime's HTTP API, never reachable. */
  daemonPorts?: readonly number[];
}

/** A plugin's derived permissions. */
export interface DerivedPermissions {
  /** The Worker's permissions, exactly. */
  worker: Deno.PermissionOptionsObject;
  /** Readable paths. */
  read: string[];
  /** Writable paths. */
  write: string[];
  /** Reachable hosts. */
  net: string[];
  /** Runnable commands. */
  run: string[];
  /** Whether it needs more than reading its own code (then it never shares a process). */
  privileged: boolean;
  /** Grants that were not used, and why. */
  refused: RefusedGrant[];
}

const WRITE_CAPABILITIES = ["fs:write", "fs:edit", "fs:delete"];
const NET_CAPABILITIES = ["network:fetch", "net:outbound", "net:inbound"];

/**
 * Derives a plugin's Worker permissions.
 *
 * @example
 * ```ts
 * import { derivePermissions } from "./derive_permissions.ts";
 * const p = derivePermissions(
 *   { capabilities: ["tools", "network:fetch"], grants: { "network:fetch": ["api.example.com:443"] },
 *     pluginDir: "/h/data/plugins/x", dataDir: "/h/data/plugin-data/x" },
 *   { sourceReads: ["/src/loaders/worker"] },
 * );
 * // p.worker.net = ["api.example.com:443"], p.worker.write = false, p.worker.env = false
 * ```
 */
export function derivePermissions(input: PermissionInput, options: DeriveOptions): DerivedPermissions {
  const has = (names: readonly string[]) => names.some((n) => input.capabilities.includes(n));
  const refused: RefusedGrant[] = [];
  const read = [...options.sourceReads, input.pluginDir];
  if (input.capabilities.some((c) => c.startsWith("fs:"))) read.push(input.dataDir);
  const write = has(WRITE_CAPABILITIES) ? [input.dataDir] : [];
  let net: string[] = [];
  if (has(NET_CAPABILITIES)) {
    const granted = NET_CAPABILITIES.filter((c) => input.capabilities.includes(c))
      .flatMap((c) => input.grants[c] ?? []);
    const filtered = filterNetGrants(granted, { daemonPorts: options.daemonPorts });
    net = filtered.hosts;
    refused.push(...filtered.refused);
  }
  const run: string[] = [];
  if (has(["shell:run"])) {
    for (const command of input.grants["shell:run"] ?? []) {
      if (command === "" || /[,\s]/.test(command)) {
        refused.push({ grant: command, reason: "not a command name" });
      } else if (!run.includes(command)) run.push(command);
    }
  }
  for (const path of [...read, ...write]) {
    // Deno splits permission lists on commas: a comma would widen or break the grant.
    if (path.includes(",")) {
      throw new CortexError("sandbox_unavailable", `a sandbox path may not contain a comma: ${path}`);
    }
  }
  return {
    worker: {
      read,
      write: write.length ? write : false,
      net: net.length ? net : false,
      run: run.length ? run : false,
      env: false,
      ffi: false,
      sys: false,
      import: false,
    },
    read,
    write,
    net,
    run,
    privileged: write.length > 0 || net.length > 0 || run.length > 0 || read.includes(input.dataDir),
    refused,
  };
}
