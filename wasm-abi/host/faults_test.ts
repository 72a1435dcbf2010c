import { deepEqual, equal, match, ok, rejects } from "node:assert/strict";
import type { CortexError } from "../../runtime/errors.ts";
import { startWasmPlugin } from "./start_wasm_plugin.ts";
import { buildProbe, memoryServices, pluginWat, testOptions, wat } from "./test_util.ts";
import type { WasmPlugin, WasmPluginOptions } from "./types.ts";

const probe = await buildProbe();

async function withProbe(
  run: (plugin: WasmPlugin) => Promise<void>,
  options: Partial<WasmPluginOptions> = {},
) {
  const plugin = await startWasmPlugin(probe, testOptions(memoryServices().services, options));
  try {
    await run(plugin);
  } finally {
    await plugin.close();
  }
}

const calls = async (plugin: WasmPlugin) => JSON.parse((await plugin.callTool("calls", {})).output).calls;

Deno.test("a trap is a tool error and the next call runs on a fresh instance", async () => {
  await withProbe(async (plugin) => {
    equal(await calls(plugin), 1);
    equal(await calls(plugin), 2);
    const trapped = await plugin.callTool("trap", {});
    deepEqual([trapped.success, trapped.code], [false, "trap"]);
    match(trapped.error!, /unreachable.*restarted/);
    equal(await calls(plugin), 1, "plugin_init ran again on a new instance");
  });
});

Deno.test("an out-of-bounds access, by the plugin or through a host import, is a tool error", async () => {
  await withProbe(async (plugin) => {
    const direct = await plugin.callTool("oob", {});
    deepEqual([direct.success, direct.code], [false, "trap"]);
    match(direct.error!, /out of bounds/);
    const viaHost = await plugin.callTool("host_oob", {});
    deepEqual([viaHost.success, viaHost.code], [false, "out_of_bounds"]);
    deepEqual(await plugin.callTool("log", { text: "fine" }), { success: true, output: "logged" });
  });
});

Deno.test("a plugin stuck in a loop is stopped at its deadline and a fresh Worker answers next", async () => {
  await withProbe(async (plugin) => {
    const stuck = await plugin.callTool("loop", {}, { timeoutMs: 200 });
    deepEqual([stuck.success, stuck.code], [false, "timeout"]);
    equal(await calls(plugin), 1);
  });
});

Deno.test("cancelling a running call stops the plugin; cancelling a queued call skips it", async () => {
  await withProbe(async (plugin) => {
    const controller = new AbortController();
    const running = plugin.callTool("loop", {}, { signal: controller.signal });
    const queuedController = new AbortController();
    const queued = plugin.callTool("calls", {}, { signal: queuedController.signal });
    queuedController.abort();
    await rejects(queued, (e: CortexError) => e.code === "aborted");
    controller.abort();
    await rejects(running, (e: CortexError) => e.code === "aborted");
    equal(await calls(plugin), 1);
  });
});

Deno.test("calls made together run one at a time, in order", async () => {
  await withProbe(async (plugin) => {
    const results = await Promise.all([1, 2, 3, 4].map(() => calls(plugin)));
    deepEqual(results, [1, 2, 3, 4]);
  });
});

Deno.test("memory.grow past maxMemoryPages fails inside the plugin", async () => {
  await withProbe(async (plugin) => {
    equal((await plugin.callTool("grow", { pages: 1000 })).output, "-1");
    const before = Number((await plugin.callTool("grow", { pages: 1 })).output);
    ok(before > 16 && before < 64);
    equal((await plugin.callTool("grow", { pages: 64 - before })).output, "-1");
  }, { maxMemoryPages: 64 });
});

Deno.test("an imported memory is created within maxMemoryPages", async () => {
  const growsToLimit = await wat(pluginWat({
    imports: '(import "env" "memory" (memory 32))',
    memory: "",
    execute: `(if (i32.ne (memory.grow (i32.const 33)) (i32.const -1)) (then (return (i32.const 5))))
      (if (i32.eq (memory.grow (i32.const 32)) (i32.const -1)) (then (return (i32.const 6))))
      (memory.copy (local.get $out) (i32.const 0x180000) (i32.const 2))
      (i32.store (local.get $len) (i32.const 2))
      i32.const 0`,
  }));
  const plugin = await startWasmPlugin(
    growsToLimit,
    testOptions(memoryServices().services, { maxMemoryPages: 64 }),
  );
  try {
    deepEqual(await plugin.callTool("t", {}), { success: true, output: "ok" });
  } finally {
    await plugin.close();
  }
});

Deno.test("close runs plugin_destroy, then calls are refused", async () => {
  const module = await wat(pluginWat({
    imports: '(import "env" "host_set_state" (func $set (param i32 i32 i32 i32)))',
    extra: `(data (i32.const 0x190000) "destroyed")
      (func (export "plugin_destroy") (call $set (i32.const 0x190000) (i32.const 9) (i32.const 0x190000) (i32.const 9)))`,
  }));
  const { services, state } = memoryServices();
  const plugin = await startWasmPlugin(module, testOptions(services));
  await rejects(plugin.callTool("nope", {}), (e: CortexError) => e.code === "unknown_tool");
  const notAnObject = [1, 2] as unknown as Record<string, unknown>;
  await rejects(plugin.callTool("t", notAnObject), (e: CortexError) => e.code === "args_invalid");
  await plugin.close();
  equal(state.get("destroyed"), "destroyed");
  await rejects(plugin.callTool("t", {}), (e: CortexError) => e.code === "plugin_closed");
});
