/**
 * Shared pieces of the host tests: a temporary socket directory, the fixture
 * module's command, and a collector for what the host reports.
 *
 * @module
 */
import type { ModuleExitInfo, ModuleHandlers, ModuleProcessSpec } from "./types.ts";

/** The fixture module's path. */
export const FIXTURE = new URL("./testdata/fixture_module.ts", import.meta.url).pathname;

/** The repository's examples folder. */
export const EXAMPLES = new URL("../../examples/modules/", import.meta.url).pathname;

/** A temporary directory for sockets and records, removed by `cleanup`. */
export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await Deno.makeTempDir({ prefix: "mabi" });
  return { dir, cleanup: () => Deno.remove(dir, { recursive: true }) };
}

/** A spec that runs the fixture in `mode`, recording to `dir/record.jsonl`. */
export function fixtureSpec(
  dir: string,
  mode: string,
  deadlines: ModuleProcessSpec["deadlines"] = {},
): ModuleProcessSpec {
  return {
    command: ["deno", "run", "--no-config", "-A", FIXTURE],
    cwd: dir,
    socketDir: `${dir}/s`,
    instance: "test-1",
    env: { MODE: mode, RECORD: `${dir}/record.jsonl`, COUNTER: `${dir}/counter` },
    deadlines: { readyMs: 10_000, lifecycleMs: 5_000, callMs: 5_000, graceMs: 2_000, ...deadlines },
  };
}

/** The lines the fixture recorded: frames from the host, `malformed <code>` and `closed`. */
export async function recorded(dir: string): Promise<string[]> {
  const text = await Deno.readTextFile(`${dir}/record.jsonl`).catch(() => "");
  return text.split("\n").filter((line) => line !== "");
}

/** Handlers that keep what the host reported. */
export function collector(): ModuleHandlers & {
  events: [string, unknown][];
  logs: string[];
  exits: ModuleExitInfo[];
} {
  const events: [string, unknown][] = [];
  const logs: string[] = [];
  const exits: ModuleExitInfo[] = [];
  return {
    events,
    logs,
    exits,
    onEvent: (name, payload) => events.push([name, payload]),
    onLog: (line, source) => logs.push(`${source}: ${line}`),
    onExit: (info) => exits.push(info),
  };
}
