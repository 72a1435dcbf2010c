/**
 * WASM plugin call cost, measured in one run against its floor.
 *
 * - floor: a bare Worker (no permissions) that receives `{name, args}` by
 *   postMessage, writes them into the module's memory, calls
 *   `plugin_execute_tool` of the same echo module and posts the output back.
 * - cortex: the same module through `startWasmPlugin` (queue, deadline,
 *   message validation, host heap, retry protocol).
 * - extism: the same echo logic built for the Extism kernel ABI
 *   (`wasm-abi/bench_data/extism_echo.c`), run by `@extism/extism` with
 *   `runInWorker: true`.
 *
 * Rounds alternate between contenders so that load from other processes
 * falls on all of them alike; each figure is the median over rounds.
 *
 * ```sh
 * deno run -A --unstable-worker-options bench/wasm_bench.ts
 * ```
 *
 * Needs clang + wasm-ld to build the Extism module (the echo module is the
 * committed examples/wasm/echo-c/echo.wasm).
 *
 * @module
 */

import createPlugin from "@extism/extism";
import { compileC, REPO_ROOT } from "../wasm-abi/build_examples.ts";
import { startWasmPlugin } from "../wasm-abi/mod.ts";

const ROUNDS = 31;
const CALLS_PER_ROUND = 200;
const COLD_STARTS = 9;

/** One way of calling the echo tool. */
interface Contender {
  name: string;
  call(args: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

const FLOOR_WORKER = `
const encoder = new TextEncoder();
const decoder = new TextDecoder();
let exports;
self.onmessage = (event) => {
  const message = event.data;
  if (message.wasm) {
    const module = new WebAssembly.Module(message.wasm);
    const env = { host_get_state: () => -1, host_set_state: () => {}, host_get_config: () => -1 };
    exports = new WebAssembly.Instance(module, { env }).exports;
    self.postMessage("ready");
    return;
  }
  const bytes = new Uint8Array(exports.memory.buffer);
  const view = new DataView(exports.memory.buffer);
  const name = encoder.encode(message.name);
  const args = encoder.encode(message.args);
  bytes.set(name, 0x20000);
  bytes.set(args, 0x20100);
  view.setUint32(0x10, 0x10000, true);
  const code = exports.plugin_execute_tool(0x20000, name.length, 0x20100, args.length, 0x40000, 0x10);
  const length = view.getUint32(0x10, true);
  self.postMessage({ ok: code === 0, output: decoder.decode(bytes.subarray(0x40000, 0x40000 + length)) });
};
`;

const floorUrl = URL.createObjectURL(new Blob([FLOOR_WORKER], { type: "text/javascript" }));

async function startFloor(wasm: Uint8Array): Promise<Contender> {
  const worker = new Worker(floorUrl, { type: "module", deno: { permissions: "none" } });
  let pending: ((data: unknown) => void) | undefined;
  worker.onmessage = (event) => pending?.(event.data);
  const next = () => new Promise<unknown>((resolve) => (pending = resolve));
  const ready = next();
  worker.postMessage({ wasm });
  await ready;
  return {
    name: "floor (bare Worker + postMessage)",
    async call(args) {
      const reply = next();
      worker.postMessage({ name: "echo", args: JSON.stringify(args) });
      return ((await reply) as { output: string }).output;
    },
    close: () => Promise.resolve(worker.terminate()),
  };
}

async function startCortex(wasm: Uint8Array): Promise<Contender> {
  const plugin = await startWasmPlugin(wasm, {
    pluginId: "bench-echo",
    allowNetwork: false,
    services: {
      getConfig: () => Promise.resolve(undefined),
      getState: () => Promise.resolve(null),
      setState: () => Promise.resolve(),
      log: () => {},
    },
  });
  return {
    name: "cortex startWasmPlugin",
    async call(args) {
      return (await plugin.callTool("echo", args)).output;
    },
    close: () => plugin.close(),
  };
}

async function startExtism(wasm: Uint8Array): Promise<Contender> {
  const plugin = await createPlugin({ wasm: [{ data: wasm }] }, { runInWorker: true, useWasi: false });
  return {
    name: "extism createPlugin (runInWorker)",
    async call(args) {
      return (await plugin.call("echo", JSON.stringify(args)))?.text() ?? "";
    },
    close: () => plugin.close(),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function report(title: string, unit: string, rows: { name: string; value: number; ratio?: number }[]): void {
  console.log(title);
  for (const { name, value, ratio } of rows) {
    const vs = ratio === undefined ? "" : `  ${ratio.toFixed(2)}x floor`;
    console.log(`  ${name.padEnd(36)} ${value.toFixed(1).padStart(8)} ${unit}${vs}`);
  }
}

/**
 * Per-round figures of every contender, summarised as medians; each ratio is
 * the median of per-round ratios to the floor measured in the same round,
 * which keeps load from other processes out of the comparison.
 */
function summarise(names: string[], perRound: number[][]) {
  return names.map((name, i) => ({
    name,
    value: median(perRound[i]),
    ratio: i === 0 ? undefined : median(perRound[i].map((v, round) => v / perRound[0][round])),
  }));
}

async function warm(contenders: Contender[], text: string): Promise<void> {
  const args = { text };
  for (const c of contenders) {
    if ((await c.call(args)) !== text) throw new Error(`${c.name} did not echo`);
  }
  const perCall = contenders.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? [...contenders.keys()].reverse() : [...contenders.keys()];
    for (const i of order) {
      const start = performance.now();
      for (let n = 0; n < CALLS_PER_ROUND; n++) await contenders[i].call(args);
      perCall[i].push(((performance.now() - start) * 1000) / CALLS_PER_ROUND);
    }
  }
  const bytes = new TextEncoder().encode(JSON.stringify(args)).length;
  report(
    `warm echo call, ${bytes} B of arguments (median of ${ROUNDS} rounds x ${CALLS_PER_ROUND} calls)`,
    "µs/call",
    summarise(contenders.map((c) => c.name), perCall),
  );
}

async function cold(starters: { name: string; start: () => Promise<Contender> }[]): Promise<void> {
  const times = starters.map(() => [] as number[]);
  const args = { text: "cold" };
  for (let round = 0; round < COLD_STARTS; round++) {
    for (const [i, s] of starters.entries()) {
      const begin = performance.now();
      const contender = await s.start();
      await contender.call(args);
      times[i].push(performance.now() - begin);
      await contender.close();
    }
  }
  report(
    `cold start to first answer (median of ${COLD_STARTS})`,
    "ms",
    summarise(starters.map((s) => s.name), times),
  );
}

const echo = await Deno.readFile(`${REPO_ROOT}examples/wasm/echo-c/echo.wasm`);
const extismPath = await Deno.makeTempFile({ suffix: ".wasm" });
let extismWasm: Uint8Array | undefined;
try {
  await compileC(`${REPO_ROOT}wasm-abi/bench_data/extism_echo.c`, extismPath);
  extismWasm = await Deno.readFile(extismPath);
} catch (error) {
  console.log(`extism: skipped (${error instanceof Error ? error.message : error})`);
} finally {
  await Deno.remove(extismPath);
}

const starters = [
  { name: "floor (bare Worker + postMessage)", start: () => startFloor(echo) },
  { name: "cortex startWasmPlugin", start: () => startCortex(echo) },
  ...(extismWasm
    ? [{ name: "extism createPlugin (runInWorker)", start: () => startExtism(extismWasm) }]
    : []),
];

const contenders = await Promise.all(starters.map((s) => s.start()));
try {
  await warm(contenders, "hello");
  await warm(contenders, "x".repeat(4096));
} finally {
  await Promise.all(contenders.map((c) => c.close()));
}
await cold(starters);
URL.revokeObjectURL(floorUrl);
