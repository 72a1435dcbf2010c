/**
 * The `deno run` command line of a sandbox process: the permission ceiling
 * of every Worker in it, a V8 heap cap, and no way to fetch code.
 *
 * @module
 */
import { CortexError } from "../../runtime/errors.ts";

/** The most a sandbox process may do; each Worker in it gets a subset. */
export interface ProcessCeiling {
  /** Readable paths. */
  read: string[];
  /** Writable paths. */
  write: string[];
  /** Reachable hosts (`host[:port]`). */
  net: string[];
  /** Runnable commands. */
  run: string[];
  /** Paths refused even inside a readable folder (the runtime's database, config, token). */
  deny: string[];
  /** The V8 heap cap of each isolate in the process, in MiB. */
  heapMb: number;
}

/** Where things are, for {@link sandboxArgs}. */
export interface SandboxArgsOptions {
  /** The repository's deno.json (its import map resolves `cortex/plugins`). */
  configPath: string;
  /** The sandbox main module. */
  mainPath: string;
  /** The host's control socket for this process. */
  socketPath: string;
  /** The sockets its cells will connect to, one per slot. */
  cellSockets: string[];
  /** A value the process echoes in its first frame. */
  nonce: string;
}

function list(items: readonly string[]): string {
  for (const item of items) {
    // Deno splits these lists on commas, so a comma would widen or break the grant.
    if (item.includes(",")) {
      throw new CortexError("sandbox_unavailable", `a sandbox permission may not contain a comma: ${item}`);
    }
  }
  return items.join(",");
}

/**
 * Builds the arguments after `deno`.
 *
 * @example
 * ```ts
 * import { sandboxArgs } from "./process_flags.ts";
 * const args = sandboxArgs(
 *   { read: ["/p/x"], write: [], net: [], run: [], deny: [], heapMb: 128 },
 *   {
 *     configPath: "/src/deno.json",
 *     mainPath: "/src/loaders/worker/sandbox_main.ts",
 *     socketPath: "/tmp/sbx/s.sock",
 *     cellSockets: ["/tmp/sbx/c1.sock"],
 *     nonce: "n",
 *   },
 * );
 * ```
 */
export function sandboxArgs(ceiling: ProcessCeiling, options: SandboxArgsOptions): string[] {
  const sockets = [options.socketPath, ...options.cellSockets];
  const args = [
    "run",
    `--config=${options.configPath}`,
    "--no-lock",
    "--no-remote",
    "--no-npm",
    "--no-prompt",
    "--quiet",
    "--unstable-worker-options",
    `--v8-flags=--max-old-space-size=${Math.max(16, Math.floor(ceiling.heapMb))}`,
    `--allow-read=${list([...sockets, ...ceiling.read])}`,
    `--allow-write=${list([...sockets, ...ceiling.write])}`,
    `--allow-net=${list([...sockets.map((s) => `unix:${s}`), ...ceiling.net])}`,
  ];
  if (ceiling.run.length) args.push(`--allow-run=${list(ceiling.run)}`);
  if (ceiling.deny.length) {
    args.push(`--deny-read=${list(ceiling.deny)}`, `--deny-write=${list(ceiling.deny)}`);
  }
  args.push(options.mainPath, options.socketPath, options.nonce);
  return args;
}
