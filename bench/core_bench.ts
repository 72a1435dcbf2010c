/**
 * Core call-path overhead: a trusted in-process tool call through the whole
 * call path (no middleware, no listeners) beside the floor, a direct call of
 * the same `execute`. Also: install of a small plugin, and daemon start with
 * 100 plugins installed.
 *
 *   deno bench --unstable-worker-options -A bench/core_bench.ts
 */
import { join } from "node:path";
import { Runtime } from "../runtime/runtime.ts";
import { EventBus } from "../runtime/event_bus.ts";
import { defaultLoaders } from "../loaders/mod.ts";
import { startDaemon } from "../server/daemon.ts";

const EXAMPLE = new URL("../examples/esm/event-recorder", import.meta.url).pathname;

const home = await Deno.makeTempDir({ prefix: "cortex-bench-" });
const runtime = await Runtime.open({ home, loaders: defaultLoaders(), events: new EventBus() });
await runtime.install(EXAMPLE, { trust: "trusted" });
const mod = await import("../examples/esm/event-recorder/mod.ts");
const recent = mod.tools[0];
const directCtx = {
  sessionId: "",
  workingDir: "",
  agentId: "",
  workspaceDir: "",
  caller: "person",
  signal: new AbortController().signal,
  pluginId: "event-recorder",
  pluginDir: "",
  dataDir: "",
  state: { get: () => Promise.resolve("1") },
} as never;

Deno.bench("execute() called directly (floor)", { group: "call", baseline: true }, async () => {
  await recent.execute({}, directCtx);
});

Deno.bench("runtime.call through the call path", { group: "call" }, async () => {
  await runtime.call("event-recorder.recent", {}, { caller: "person" });
});

let n = 0;
const installHome = await Deno.makeTempDir({ prefix: "cortex-bench-install-" });
const installRuntime = await Runtime.open({
  home: installHome,
  loaders: defaultLoaders(),
  events: new EventBus(),
});
const sourceRoot = await Deno.makeTempDir({ prefix: "cortex-bench-src-" });
Deno.bench("install of a small plugin (not loaded)", { group: "install", n: 50 }, async (b) => {
  const dir = join(sourceRoot, `p${n}`);
  await Deno.mkdir(dir);
  await Deno.writeTextFile(join(dir, "mod.ts"), "export const tools = [];\n");
  await Deno.writeTextFile(
    join(dir, "manifest.json"),
    JSON.stringify({
      name: `bench-${n++}`,
      version: "1.0.0",
      description: "bench",
      kind: "esm",
      entryPoint: "mod.ts",
      runtime: "deno",
      capabilities: ["tools"],
    }),
  );
  b.start();
  await installRuntime.install(dir, { trust: "trusted", load: false });
  b.end();
});

// Daemon start with 100 trusted plugins installed.
const daemonHome = await Deno.makeTempDir({ prefix: "cortex-bench-daemon-" });
{
  const r = await Runtime.open({ home: daemonHome, loaders: defaultLoaders(), events: new EventBus() });
  for (let i = 0; i < 100; i++) {
    const dir = join(sourceRoot, `d${i}`);
    await Deno.mkdir(dir);
    await Deno.writeTextFile(
      join(dir, "mod.ts"),
      `export const tools = [{ definition: { name: "t", description: "", params: [], capabilities: [] }, execute: () => ({ toolName: "t", success: true, output: "${i}", durationMs: 0 }) }];\n`,
    );
    await Deno.writeTextFile(
      join(dir, "manifest.json"),
      JSON.stringify({
        name: `daemon-${i}`,
        version: "1.0.0",
        description: "bench",
        kind: "esm",
        entryPoint: "mod.ts",
        runtime: "deno",
        capabilities: ["tools"],
      }),
    );
    await r.install(dir, { trust: "trusted", load: false });
  }
  await r.close();
}
Deno.bench("daemon start with 100 plugins installed (to listening)", { group: "daemon", n: 5 }, async (b) => {
  b.start();
  const r = await Runtime.open({ home: daemonHome, loaders: defaultLoaders(), events: new EventBus() });
  const daemon = await startDaemon(r, { port: 0 });
  b.end();
  await daemon.close();
});

globalThis.addEventListener("unload", () => {
  runtime.close();
  installRuntime.close();
});
