/**
 * Sandbox bench: each measurement runs beside its floor in the same process
 * (call by call in turns where it can), and is reported as a ratio.
 *
 * 1. tool call round trip, one at a time: a sandboxed tool's boundary
 *    (`ToolRecord.invoke`, what the call path awaits) against a raw Worker
 *    postMessage round trip in this process. Target: median <= 2x.
 *    Also shown: the same call through `runtime.call` (the whole call path).
 * 2. the same with 100 calls in flight: time per batch. Target: <= 2x (at
 *    least half the raw throughput).
 * 3. cold start, enable to first answer, against a raw Worker spawn to first
 *    answer. Target: <= 2x. Shown for a plugin joining a running shared
 *    sandbox process and for one that needs a process of its own.
 * 4. idle memory per sandboxed plugin with 10 and 50 plugins loaded (PSS of
 *    every sandbox process, divided by the plugins), beside the floors of one
 *    idle `deno run` process and of one idle Worker. Target: <= 12 MiB.
 * 5. time to take back a looping plugin's core after its deadline (the call
 *    answers `call_timeout` at the deadline; measured until its process is
 *    gone), beside the floor of SIGKILL-to-reaped for an idle `deno run`.
 *    Target: < 1000 ms.
 *
 * Run: `deno run -A bench/sandbox_bench.ts [--samples=3000] [--assert]`
 * (Linux: memory is read from /proc; `--assert` exits 1 when a target is missed).
 *
 * @module
 */
import { join } from "node:path";
import { SandboxLoader, type SandboxLoaderOptions } from "../loaders/worker/mod.ts";
import { EventBus } from "../runtime/event_bus.ts";
import { Runtime } from "../runtime/runtime.ts";
import type { ToolCallContext } from "../runtime/tool_registry.ts";

const args = new Map(Deno.args.map((arg) => arg.replace(/^--/, "").split("=") as [string, string]));
const SAMPLES = Number(args.get("samples") ?? 3000);
const BATCHES = Math.max(20, Math.floor(SAMPLES / 30));
const COLD = Number(args.get("cold") ?? 30);
const failures: string[] = [];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const ms = (x: number) => `${x.toFixed(x < 1 ? 3 : 1)} ms`;
const us = (x: number) => `${(x * 1000).toFixed(1)} µs`;

function report(name: string, value: string, floor: string, ratio: number, target: number, unit = "x"): void {
  const ok = ratio <= target;
  if (!ok) failures.push(name);
  console.log(
    `${ok ? "ok  " : "MISS"} ${name.padEnd(44)} ${value.padStart(12)}  floor ${floor.padStart(12)}  ` +
      `${ratio.toFixed(2)}${unit} (target <= ${target}${unit})`,
  );
}

// Plugins ------------------------------------------------------------------

const root = await Deno.makeTempDir({ prefix: "cortex-sandbox-bench-" });
const src = join(root, "src");

async function writePlugin(name: string, body: string, capabilities = ["tools"]): Promise<string> {
  const dir = join(src, name);
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(join(dir, "mod.ts"), body);
  await Deno.writeTextFile(
    join(dir, "manifest.json"),
    JSON.stringify({
      name,
      version: "1.0.0",
      description: "bench",
      kind: "esm",
      entryPoint: "mod.ts",
      runtime: "deno",
      capabilities,
    }),
  );
  return dir;
}

const ECHO = `export const tools = [{
  definition: {
    name: "echo", description: "", capabilities: [],
    params: [{ name: "text", type: "string", description: "" }],
  },
  execute: (args) => ({ toolName: "echo", success: true, output: String(args.text), durationMs: 0 }),
}];\n`;
const SPIN = `export const tools = [{
  definition: { name: "spin", description: "", params: [], capabilities: [] },
  execute: () => { while (true) { /* loop */ } },
}, {
  definition: { name: "ok", description: "", params: [], capabilities: [] },
  execute: () => ({ toolName: "ok", success: true, output: "ok", durationMs: 0 }),
}];\n`;

async function openRuntime(name: string, options: SandboxLoaderOptions = {}, timeoutMs = 30_000) {
  const home = join(root, name);
  const sandbox = new SandboxLoader({ home, ...options });
  const runtime = await Runtime.open({
    home,
    loaders: { esmSandboxed: sandbox },
    events: new EventBus(),
    defaultTimeoutMs: timeoutMs,
  });
  return { home, sandbox, runtime };
}

// Floors -------------------------------------------------------------------

const WORKER_SRC = "data:application/javascript,self.onmessage = (e) => self.postMessage(e.data);";

async function rawWorker(): Promise<Worker> {
  const worker = new Worker(WORKER_SRC, { type: "module" });
  await new Promise((resolve) => {
    worker.onmessage = resolve;
    worker.postMessage(0);
  });
  return worker;
}

function workerRoundTrip(worker: Worker, message: unknown): Promise<unknown> {
  return new Promise((resolve) => {
    worker.onmessage = (e) => resolve(e.data);
    worker.postMessage(message);
  });
}

function workerBatch(worker: Worker, message: unknown, n: number): Promise<void> {
  return new Promise((resolve) => {
    let left = n;
    worker.onmessage = () => {
      if (--left === 0) resolve();
    };
    for (let i = 0; i < n; i++) worker.postMessage(message);
  });
}

function pssMb(pid: number): number {
  const text = Deno.readTextFileSync(`/proc/${pid}/smaps_rollup`);
  return Number(/^Pss:\s+(\d+)/m.exec(text)![1]) / 1024;
}

async function idleDenoProcess(): Promise<Deno.ChildProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "data:application/javascript,console.log('up'); setInterval(() => {}, 1e6);"],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.getReader();
  await reader.read();
  reader.releaseLock();
  await child.stdout.cancel();
  return child;
}

// 1 and 2: round trips ------------------------------------------------------

{
  const { sandbox, runtime } = await openRuntime("rtt");
  await runtime.install(await writePlugin("bench-echo", ECHO));
  const tool = runtime.registry.get("bench-echo.echo")!;
  const ctx: ToolCallContext = {
    caller: "person",
    sessionId: "",
    agentId: "",
    workingDir: "",
    workspaceDir: "",
    signal: new AbortController().signal,
  };
  const args = { text: "bench" };
  const worker = await rawWorker();
  const raw: number[] = [];
  const boundary: number[] = [];
  const full: number[] = [];
  for (let i = 0; i < 300; i++) {
    await tool.invoke(args, ctx);
    await workerRoundTrip(worker, args);
  }
  for (let i = 0; i < SAMPLES; i++) {
    let t = performance.now();
    await workerRoundTrip(worker, args);
    raw.push(performance.now() - t);
    t = performance.now();
    await tool.invoke(args, ctx);
    boundary.push(performance.now() - t);
    if (i % 3 === 0) {
      t = performance.now();
      await runtime.call("bench-echo.echo", args, { caller: "person" });
      full.push(performance.now() - t);
    }
  }
  console.log(`\nround trip, one at a time (${SAMPLES} samples, medians)`);
  report(
    "sandboxed tool call (boundary)",
    us(median(boundary)),
    us(median(raw)),
    median(boundary) / median(raw),
    2,
  );
  console.log(`     through runtime.call (whole call path): ${us(median(full))}`);

  const rawBatch: number[] = [];
  const sandboxBatch: number[] = [];
  for (let i = 0; i < BATCHES; i++) {
    let t = performance.now();
    await workerBatch(worker, args, 100);
    rawBatch.push(performance.now() - t);
    t = performance.now();
    await Promise.all(Array.from({ length: 100 }, () => tool.invoke(args, ctx)));
    sandboxBatch.push(performance.now() - t);
  }
  console.log(`\n100 calls in flight (${BATCHES} batches, medians per batch)`);
  report(
    "sandboxed tool calls x100 (boundary)",
    ms(median(sandboxBatch)),
    ms(median(rawBatch)),
    median(sandboxBatch) / median(rawBatch),
    2,
  );
  console.log(
    `     throughput: ${Math.round(100_000 / median(sandboxBatch))} calls/s vs raw ` +
      `${Math.round(100_000 / median(rawBatch))} messages/s`,
  );
  worker.terminate();
  await runtime.close();
  await sandbox.close();
}

// 3: cold start --------------------------------------------------------------

{
  const shared = await openRuntime("cold-shared");
  await shared.runtime.install(await writePlugin("resident", ECHO));
  await shared.runtime.install(await writePlugin("cold-echo", ECHO));
  const solo = await openRuntime("cold-solo", { layout: "per-plugin" });
  await solo.runtime.install(await writePlugin("solo-echo", ECHO));
  const rawSpawn: number[] = [];
  const joining: number[] = [];
  const ownProcess: number[] = [];
  for (let i = 0; i < COLD; i++) {
    let t = performance.now();
    const worker = await rawWorker();
    await workerRoundTrip(worker, { text: "x" });
    rawSpawn.push(performance.now() - t);
    worker.terminate();
    await shared.runtime.disable("cold-echo");
    t = performance.now();
    await shared.runtime.enable("cold-echo");
    await shared.runtime.call("cold-echo.echo", { text: "x" }, { caller: "person" });
    joining.push(performance.now() - t);
    await solo.runtime.disable("solo-echo");
    t = performance.now();
    await solo.runtime.enable("solo-echo");
    await solo.runtime.call("solo-echo.echo", { text: "x" }, { caller: "person" });
    ownProcess.push(performance.now() - t);
  }
  console.log(`\ncold start, enable to first answer (${COLD} samples, medians)`);
  report(
    "joining a running sandbox process",
    ms(median(joining)),
    ms(median(rawSpawn)),
    median(joining) / median(rawSpawn),
    2,
  );
  console.log(
    `     in a process of its own (privileged, quarantined or per-plugin layout): ${
      ms(median(ownProcess))
    } ` +
      `(${(median(ownProcess) / median(rawSpawn)).toFixed(2)}x)`,
  );
  await shared.runtime.close();
  await shared.sandbox.close();
  await solo.runtime.close();
  await solo.sandbox.close();
}

// 4: idle memory ---------------------------------------------------------------

if (Deno.build.os === "linux") {
  const processFloor = await idleDenoProcess();
  const floorPss = pssMb(processFloor.pid);
  processFloor.kill("SIGKILL");
  await processFloor.status;
  console.log(`\nidle memory per sandboxed plugin (PSS of all sandbox processes / plugins)`);
  for (const [layout, count] of [["shared", 10], ["shared", 50], ["per-plugin", 10]] as const) {
    const { sandbox, runtime } = await openRuntime(`mem-${layout}-${count}`, { layout });
    for (let i = 0; i < count; i++) {
      await runtime.install(await writePlugin(`m-${layout}-${count}-${i}`, ECHO));
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const processes = sandbox.processes();
    const total = processes.reduce((sum, p) => sum + pssMb(p.pid), 0);
    const each = total / count;
    const name = `${count} plugins, ${layout} layout (${processes.length} proc)`;
    if (layout === "shared") {
      report(name, `${each.toFixed(1)} MiB`, `${floorPss.toFixed(1)} MiB`, each / 12, 1, "");
    } else console.log(`     ${name}: ${each.toFixed(1)} MiB each (not the default layout)`);
    await runtime.close();
    await sandbox.close();
  }
  console.log(`     (ratio column: MiB per plugin / 12 MiB; floor: one idle deno run process)`);
}

// 5: taking back a looping plugin's core --------------------------------------

{
  const DEADLINE = 500;
  const { sandbox, runtime } = await openRuntime(
    "reclaim",
    { crashPolicy: { maxCrashes: 1000, backoffMs: 10 } },
    DEADLINE,
  );
  await runtime.install(await writePlugin("bench-echo", ECHO));
  await runtime.install(await writePlugin("spinner", SPIN));
  const past: number[] = [];
  for (let i = 0; i < 5; i++) {
    await runtime.call("spinner.ok", {}, { caller: "person" }); // restarts it after the last round's kill
    const pid = sandbox.processes().find((p) => p.plugins.includes("spinner"))?.pid;
    const started = performance.now();
    const result = await runtime.call("spinner.spin", {}, { caller: "person" });
    if (result.errorCode !== "call_timeout" || pid === undefined) {
      throw new Error("the loop did not time out");
    }
    while (await Deno.stat(`/proc/${pid}`).then(() => true, () => false)) {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    past.push(performance.now() - started - DEADLINE);
    await runtime.call("bench-echo.echo", { text: "x" }, { caller: "person" });
  }
  const floor: number[] = [];
  for (let i = 0; i < 5; i++) {
    const child = await idleDenoProcess();
    const t = performance.now();
    child.kill("SIGKILL");
    await child.status;
    floor.push(performance.now() - t);
  }
  console.log(`\ntaking back a looping plugin's core (${DEADLINE} ms deadline, 5 samples, medians)`);
  report("core back after the deadline", ms(median(past)), ms(median(floor)), median(past) / 1000, 1, "s");
  console.log(`     (ratio column: seconds past the deadline; floor: SIGKILL to reaped, idle deno run)`);
  await runtime.close();
  await sandbox.close();
}

await Deno.remove(root, { recursive: true }).catch(() => {});
if (failures.length) console.log(`\nmissed: ${failures.join(", ")}`);
if (args.has("assert") && failures.length) Deno.exit(1);
