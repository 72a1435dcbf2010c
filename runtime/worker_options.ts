import { CortexError } from "./errors.ts";

let cached: boolean | undefined;

/**
 * Whether this process may start Workers with restricted permissions. Deno
 * needs `--unstable-worker-options` for that, and without it a Worker given
 * permissions ends the whole process (exit code 70) where no `catch` can
 * stop it, so the flag is looked for on the process's own command line
 * before any such Worker is made. Deno lets only `--allow-all` read that
 * command line; otherwise `CORTEX_WORKER_OPTIONS=1` beside the flag (as the
 * repository's tasks set it) says the flag is there.
 */
export function workerOptionsAvailable(): boolean {
  if (cached !== undefined) return cached;
  let args: string[] = [];
  try {
    args = Deno.readTextFileSync("/proc/self/cmdline").split("\0");
  } catch {
    // Not Linux, or not allowed to read it: fall back to the explicit setting.
  }
  let declared = false;
  try {
    declared = Deno.env.get("CORTEX_WORKER_OPTIONS") === "1";
  } catch {
    // Without env access the command line is the only evidence.
  }
  cached = declared || args.includes("--unstable-worker-options") || args.includes("--unstable");
  return cached;
}

/**
 * Refuses to go on when permission-restricted Workers are unavailable, with
 * a message that says how to fix it. Untrusted code never runs with the
 * host's own permissions instead.
 *
 * @throws {CortexError} `sandbox_unavailable`.
 */
export function ensureWorkerOptions(what: string): void {
  if (!workerOptionsAvailable()) {
    throw new CortexError(
      "sandbox_unavailable",
      `${what} needs permission-restricted Workers: run Deno with --unstable-worker-options ` +
        `(and, unless it runs with --allow-all, set CORTEX_WORKER_OPTIONS=1 so cortex can tell); the code was not run`,
    );
  }
}
