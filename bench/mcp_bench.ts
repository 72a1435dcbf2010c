/**
 * MCP bridge bench: each measurement runs beside its floor in the same
 * process, call by call in turns, and is reported as a ratio of medians.
 *
 * 1. client: `tools/call` through `McpConnection` to a stdio server, against
 *    the SDK's own `Client` + `StdioClientTransport` calling the same server.
 * 2. server: `tools/call` from the SDK client into the runtime's stdio server
 *    (`serveMcpStdio` over a ToolSource), against a bare SDK `Server` exposing
 *    the same function.
 *
 * Run: `deno run -A bench/mcp_bench.ts [--samples=3000] [--assert]`
 * (`--assert` exits 1 when a ratio is above its 1.2x target).
 *
 * @module
 */
import { fileURLToPath } from "node:url";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpConnection } from "../mcp-bridge/client/connection.ts";

const TARGET = 1.2;
const args = new Map(Deno.args.map((arg) => arg.replace(/^--/, "").split("=") as [string, string]));
const SAMPLES = Number(args.get("samples") ?? 3000);
const WARMUP = 200;

const config = fileURLToPath(new URL("../deno.json", import.meta.url));
const script = (name: string) => fileURLToPath(new URL(`../mcp-bridge/testdata/${name}`, import.meta.url));
const serverArgs = (name: string) => ["run", "--no-prompt", "--config", config, script(name)];
const echo = { message: "bench" };

type Call = () => Promise<unknown>;

async function sdkClient(file: string): Promise<{ call: Call; close: () => Promise<void> }> {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(new StdioClientTransport({ command: Deno.execPath(), args: serverArgs(file) }), {
    timeout: 60_000,
  });
  return {
    call: () => client.callTool({ name: "demo.echo", arguments: echo }),
    close: () => client.close(),
  };
}

async function bridgeClient(file: string): Promise<{ call: Call; close: () => Promise<void> }> {
  const connection = await McpConnection.connect(
    {
      transport: "stdio",
      command: Deno.execPath(),
      args: serverArgs(file),
      env: { PATH: Deno.env.get("PATH") ?? "" },
    },
    {
      requestTimeoutMs: 10_000,
      initTimeoutMs: 60_000,
      onLog: () => {},
      onToolsChanged: () => {},
      clientName: "bench",
    },
  );
  return {
    call: async () => {
      const result = await connection.callTool("demo.echo", echo);
      if (!result.success) throw new Error(result.error);
      return result;
    },
    close: () => connection.close(),
  };
}

async function warm(call: Call, calls: number): Promise<void> {
  for (let i = 0; i < calls; i++) await call();
}

async function timeOne(call: Call): Promise<number> {
  const start = performance.now();
  await call();
  return (performance.now() - start) * 1000;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Times single calls, floor and measured taking turns (and swapping who goes
 * first), so load from other processes on a shared machine hits both alike;
 * the median per-call latency ignores the calls a context switch spoiled.
 */
async function compare(name: string, floor: Call, measured: Call): Promise<number> {
  await warm(floor, WARMUP);
  await warm(measured, WARMUP);
  const floorTimes: number[] = [];
  const measuredTimes: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    if (i % 2 === 0) {
      floorTimes.push(await timeOne(floor));
      measuredTimes.push(await timeOne(measured));
    } else {
      measuredTimes.push(await timeOne(measured));
      floorTimes.push(await timeOne(floor));
    }
  }
  const f = median(floorTimes);
  const m = median(measuredTimes);
  const ratio = m / f;
  const verdict = ratio <= TARGET ? "ok" : "ABOVE TARGET";
  console.log(
    `${name}: median ${m.toFixed(1)} µs/call vs floor ${f.toFixed(1)} µs/call -> ratio ${
      ratio.toFixed(3)
    }x ` +
      `(target <= ${TARGET}x, ${verdict}; ${SAMPLES} alternating calls each)`,
  );
  return ratio;
}

const ratios: number[] = [];

{
  // 1. Client side: both clients call the same bare SDK server (two processes of it).
  const floor = await sdkClient("bare_sdk_server.ts");
  const measured = await bridgeClient("bare_sdk_server.ts");
  try {
    ratios.push(
      await compare(
        "client  McpConnection.callTool vs SDK Client.callTool (stdio)",
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
  // 2. Server side: the same SDK client calls the runtime's server and a bare SDK server.
  const floor = await sdkClient("bare_sdk_server.ts");
  const measured = await sdkClient("serve_demo.ts");
  try {
    ratios.push(
      await compare(
        "server  serveMcpStdio(ToolSource) vs bare SDK Server (stdio)",
        floor.call,
        measured.call,
      ),
    );
  } finally {
    await measured.close();
    await floor.close();
  }
}

if (args.has("assert") && ratios.some((ratio) => ratio > TARGET)) Deno.exit(1);
