/**
 * MCP through the whole runtime, each measurement beside its floor, in
 * interleaved rounds, reported as a ratio of medians (target ≤ 1.2x):
 *
 * 1. serve: a `tools/call` from the SDK's `Client` (stdio) into `cortex mcp
 *    serve` (the real command, a subprocess, with a trusted in-process tool
 *    `demo.echo`), against the same client calling a bare SDK `Server`
 *    subprocess that exposes the same function.
 * 2. plugin: `runtime.call("everything.echo")` through the runtime's mcp
 *    plugin (call path + McpLoader + bridge client), against the SDK's
 *    `Client` calling `echo` on the same server (server-everything, same
 *    command, permissions and environment) directly.
 *
 * Run: `deno run --unstable-worker-options -A bench/mcp_serve_bench.ts [--rounds=30] [--calls=100] [--assert]`
 * (`--assert` exits 1 when a ratio is above its target).
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { defaultLoaders } from "../loaders/mod.ts";
import { cacheEverything, everythingStdioSpec } from "../mcp-bridge/testdata/everything.ts";
import { EventBus } from "../runtime/event_bus.ts";
import { Runtime } from "../runtime/runtime.ts";

const TARGET = 1.2;
const args = new Map(Deno.args.map((arg) => arg.replace(/^--/, "").split("=") as [string, string]));
const ROUNDS = Number(args.get("rounds") ?? 30);
const CALLS = Number(args.get("calls") ?? 100);
const WARMUP = 300;

const REPO = fileURLToPath(new URL("../", import.meta.url));
const CONFIG = join(REPO, "deno.json");
const CLIENT = "bench";

type Call = () => Promise<unknown>;

/** The SDK client over stdio to a subprocess; `call` checks the answer so both sides do the same work. */
async function sdkClient(
  params: { command: string; args: string[]; env?: Record<string, string>; cwd?: string },
  tool: string,
  expected: string,
): Promise<{ call: Call; close: () => Promise<void> }> {
  const client = new Client({ name: CLIENT, version: "1" });
  await client.connect(new StdioClientTransport({ ...params, stderr: "ignore" }), { timeout: 60_000 });
  const call = async () => {
    const result = await client.callTool({ name: tool, arguments: { message: "bench" } });
    const text = (result.content as { text?: string }[])[0]?.text;
    if (text !== expected) throw new Error(`${tool} answered ${JSON.stringify(result.content)}`);
    return result;
  };
  return { call, close: () => client.close() };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function timed(call: Call, into: number[]): Promise<void> {
  for (let i = 0; i < CALLS; i++) {
    const start = performance.now();
    await call();
    into.push((performance.now() - start) * 1000);
  }
}

/**
 * Rounds of CALLS calls each, floor and measured taking turns (who goes
 * first swaps every round), so load from other processes on a shared
 * machine hits both alike. Reports the ratio of the per-call medians and the
 * median of the per-round ratios.
 */
async function compare(name: string, floor: Call, measured: Call): Promise<number> {
  for (let i = 0; i < WARMUP; i++) await floor();
  for (let i = 0; i < WARMUP; i++) await measured();
  const floorTimes: number[] = [];
  const measuredTimes: number[] = [];
  const roundRatios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const f: number[] = [];
    const m: number[] = [];
    if (round % 2 === 0) {
      await timed(floor, f);
      await timed(measured, m);
    } else {
      await timed(measured, m);
      await timed(floor, f);
    }
    roundRatios.push(median(m) / median(f));
    floorTimes.push(...f);
    measuredTimes.push(...m);
  }
  const f = median(floorTimes);
  const m = median(measuredTimes);
  const ratio = m / f;
  console.log(
    `${name}\n  median ${m.toFixed(1)} µs/call vs floor ${f.toFixed(1)} µs/call -> ratio ${
      ratio.toFixed(3)
    }x` +
      ` (median of round ratios ${median(roundRatios).toFixed(3)}x; target <= ${TARGET}x, ` +
      `${ratio <= TARGET ? "ok" : "ABOVE TARGET"}; ${ROUNDS} rounds x ${CALLS} calls each)`,
  );
  return ratio;
}

/** A home with a trusted esm plugin `demo` whose `echo` does what the bare SDK server's `demo.echo` does. */
async function demoHome(root: string): Promise<string> {
  const home = join(root, "home");
  const src = join(root, "demo");
  await Deno.mkdir(src, { recursive: true });
  await Deno.writeTextFile(
    join(src, "manifest.json"),
    JSON.stringify({
      name: "demo",
      version: "1.0.0",
      description: "bench: the bare SDK server's demo.echo as a trusted plugin",
      kind: "esm",
      entryPoint: "mod.ts",
      runtime: "deno",
      capabilities: ["tools"],
      tools: [{
        name: "echo",
        description: "Echoes",
        params: [{ name: "message", type: "string", required: true }],
      }],
    }),
  );
  await Deno.writeTextFile(
    join(src, "mod.ts"),
    `export const tools = [{
  definition: { name: "echo", description: "Echoes", params: [{ name: "message", type: "string", required: true }], capabilities: [] },
  execute: (args, ctx) => ({ toolName: "echo", success: true, output: ctx.caller + " says " + String(args.message), durationMs: 0 }),
}];\n`,
  );
  const runtime = await Runtime.open({ home, loaders: defaultLoaders(), events: new EventBus() });
  try {
    const { loadError } = await runtime.install(src, { trust: "trusted" });
    if (loadError) throw loadError;
  } finally {
    await runtime.close();
  }
  return home;
}

const ratios: number[] = [];
const root = await Deno.makeTempDir({ prefix: "cortex-mcp-serve-bench-" });
try {
  {
    // 1. The runtime as an MCP server vs a bare SDK server, both subprocesses over stdio.
    const home = await demoHome(join(root, "serve"));
    const expected = `agent:${CLIENT} says bench`;
    const floor = await sdkClient(
      {
        command: Deno.execPath(),
        args: [
          "run",
          "--no-prompt",
          "--config",
          CONFIG,
          join(REPO, "mcp-bridge/testdata/bare_sdk_server.ts"),
        ],
      },
      "demo.echo",
      expected,
    );
    const measured = await sdkClient(
      {
        command: Deno.execPath(),
        args: [
          "run",
          "--unstable-worker-options",
          "-A",
          "--config",
          CONFIG,
          join(REPO, "cli/main.ts"),
          "mcp",
          "serve",
        ],
        env: { CORTEX_HOME: home },
      },
      "demo.echo",
      expected,
    );
    try {
      ratios.push(
        await compare(
          "serve   SDK Client -> `cortex mcp serve` (trusted demo.echo) vs -> bare SDK Server (stdio)",
          floor.call,
          measured.call,
        ),
      );
    } finally {
      await measured.close();
      await floor.close();
    }
  }

  {
    // 2. An MCP plugin called through the runtime vs the SDK client calling the same server directly.
    await cacheEverything();
    const runtime = await Runtime.open({
      home: join(root, "plugin"),
      loaders: defaultLoaders(),
      events: new EventBus(),
      defaultTimeoutMs: 60_000,
    });
    try {
      const { loadError } = await runtime.install(join(REPO, "examples/mcp/everything"));
      if (loadError) throw loadError;
      // The command, permissions and environment the loader derives for this manifest.
      const spec = everythingStdioSpec(join(runtime.home.pluginsDir, "everything"));
      const floor = await sdkClient(
        { command: spec.command, args: spec.args, env: spec.env, cwd: spec.cwd },
        "echo",
        "Echo: bench",
      );
      const measured: Call = async () => {
        const result = await runtime.call("everything.echo", { message: "bench" }, { caller: "person" });
        if (result.output !== "Echo: bench") throw new Error(`everything.echo answered ${result.error}`);
        return result;
      };
      try {
        ratios.push(
          await compare(
            "plugin  runtime.call(everything.echo) vs SDK Client -> the same server-everything (stdio)",
            floor.call,
            measured,
          ),
        );
      } finally {
        await floor.close();
      }
    } finally {
      await runtime.close();
    }
  }
} finally {
  await Deno.remove(root, { recursive: true });
}

if (args.has("assert") && ratios.some((ratio) => ratio > TARGET)) Deno.exit(1);
