/**
 * Starting one sandbox process: a fresh owner-only temporary folder holding
 * its control socket (removed once the process has connected, so nothing
 * else can connect) and the paths of its cells' sockets (one per slot, each
 * listened on only while that slot's Worker connects); `deno run` with the
 * ceiling's flags and a cleared environment; and the wait for its
 * connection. Also: reading why a process ended.
 *
 * @module
 */
import { join } from "node:path";
import { CortexError } from "../../runtime/errors.ts";
import { parseLine } from "./messages.ts";
import { type ProcessCeiling, sandboxArgs } from "./process_flags.ts";

/** How to start sandbox processes. */
export interface ProcessOptions {
  /** The `deno` executable. */
  denoPath: string;
  /** The repository's deno.json. */
  configPath: string;
  /** `sandbox_main.ts`. */
  mainPath: string;
  /** The whole environment of the process. */
  env: Record<string, string>;
  /** Where the temporary socket folder goes (default the system's temp folder). */
  socketDir?: string;
  /** How long a process may take to connect. */
  startTimeoutMs: number;
  /** Resident memory allowed: a base plus this much per cell, in MiB (Linux only). */
  rssLimit?: { baseMb: number; perCellMb: number };
  /** How often memory is checked, in ms. */
  watchdogMs: number;
  /** Receives lines about problems no single plugin can be blamed for. */
  onDiagnostic(line: string): void;
}

/** A started, connected process, not yet greeted. */
export interface SpawnedSandbox {
  /** The process. */
  child: Deno.ChildProcess;
  /** Its control connection. */
  conn: Deno.Conn;
  /** The temporary folder of its sockets (remove it when the process is gone). */
  dir: string;
  /** Its cells' socket paths, by slot (index 0 is slot 1). */
  cellSockets: string[];
  /** The last few KiB of its stderr, kept up to date. */
  stderr: { text: string };
  /** Resolves when its stderr has ended. */
  stderrDone: Promise<void>;
}

const PAGE_BYTES = 4096;

/** Resident memory of process `pid` in MiB (Linux), or undefined. */
export function rssMb(pid: number): number | undefined {
  try {
    const fields = Deno.readTextFileSync(`/proc/${pid}/statm`).split(" ");
    return (Number(fields[1]) * PAGE_BYTES) / (1024 * 1024);
  } catch {
    return undefined;
  }
}

/** Says why a sandbox process ended, in words. */
export function describeExit(status: Deno.CommandStatus, stderr: string, heapMb: number): string {
  if (/out of memory|heap limit/i.test(stderr)) {
    return `the sandbox ran out of memory (heap cap ${heapMb} MiB per plugin)`;
  }
  if (status.signal) return `the sandbox process died of ${status.signal}`;
  if (status.code === 70) {
    return "the sandbox process could not start permission-restricted Workers; run Deno with --unstable-worker-options";
  }
  const tail = stderr.trim().split("\n").slice(-3).join(" | ");
  return `the sandbox process exited with code ${status.code}${tail ? `: ${tail}` : ""}`;
}

/** Keeps the last 4 KiB of a stream in `keep.text`. */
async function collectTail(stream: ReadableStream<Uint8Array>, keep: { text: string }): Promise<void> {
  const decoder = new TextDecoder();
  try {
    for await (const chunk of stream) {
      keep.text = (keep.text + decoder.decode(chunk, { stream: true })).slice(-4096);
    }
  } catch {
    // The process is gone.
  }
}

/** Parses a line, or undefined when it is not JSON. */
export function safeParse(line: string | undefined): unknown {
  try {
    return line === undefined ? undefined : parseLine(line);
  } catch {
    return undefined;
  }
}

/**
 * Starts a sandbox process and waits for its connection.
 *
 * @throws {CortexError} `sandbox_unavailable` when it cannot start or connect.
 */
export async function spawnSandbox(
  ceiling: ProcessCeiling,
  options: ProcessOptions & { slots: number; nonce: string },
): Promise<SpawnedSandbox> {
  let dir: string;
  try {
    dir = await Deno.makeTempDir({ dir: options.socketDir, prefix: "cortex-sbx-" });
  } catch (error) {
    throw new CortexError(
      "sandbox_unavailable",
      `cannot create the sandbox socket folder: ${(error as Error).message}`,
    );
  }
  const socketPath = join(dir, "s.sock");
  const cellSockets = Array.from({ length: options.slots }, (_, i) => join(dir, `c${i + 1}.sock`));
  let listener: Deno.Listener;
  try {
    listener = Deno.listen({ transport: "unix", path: socketPath });
  } catch (error) {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    throw new CortexError(
      "sandbox_unavailable",
      `cannot listen on the sandbox socket: ${(error as Error).message}`,
    );
  }
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(options.denoPath, {
      args: sandboxArgs(ceiling, {
        configPath: options.configPath,
        mainPath: options.mainPath,
        socketPath,
        cellSockets,
        nonce: options.nonce,
      }),
      clearEnv: true,
      env: options.env,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    listener.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    const hint = error instanceof Deno.errors.NotCapable
      ? " (the runtime needs --allow-run to start sandboxes)"
      : "";
    throw new CortexError(
      "sandbox_unavailable",
      `cannot start a sandbox process: ${(error as Error).message}${hint}`,
    );
  }
  const stderr = { text: "" };
  const stderrDone = collectTail(child.stderr, stderr);
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const conn = await Promise.race([
      listener.accept(),
      child.status.then((status) => {
        throw new CortexError("sandbox_unavailable", describeExit(status, stderr.text, ceiling.heapMb));
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new CortexError(
                "sandbox_unavailable",
                `the sandbox process did not connect within ${options.startTimeoutMs} ms`,
              ),
            ),
          options.startTimeoutMs,
        );
      }),
    ]);
    return { child, conn, dir, cellSockets, stderr, stderrDone };
  } catch (error) {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
    await child.status;
    await stderrDone;
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
    listener.close();
    await Deno.remove(socketPath).catch(() => {});
  }
}
