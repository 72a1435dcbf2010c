import { deepEqual, equal, ok } from "node:assert/strict";
import { CORTEX_ERR_BUFFER_TOO_SMALL, CORTEX_HEAP_BASE, CORTEX_OK, HOST_HEAP_START } from "./abi.ts";
import { startWasmPlugin } from "./start_wasm_plugin.ts";
import { buildProbe, memoryServices, testOptions } from "./test_util.ts";
import type { WasmPlugin } from "./types.ts";

const probe = await buildProbe();

async function withProbe(run: (plugin: WasmPlugin) => Promise<void>, state = new Map<string, string>()) {
  const plugin = await startWasmPlugin(probe, testOptions(memoryServices({}, state).services));
  try {
    await run(plugin);
  } finally {
    await plugin.close();
  }
}

async function json(plugin: WasmPlugin, tool: string, args: Record<string, unknown> = {}) {
  const result = await plugin.callTool(tool, args);
  ok(result.success, result.error);
  return JSON.parse(result.output);
}

Deno.test("the host's buffers and length slot are aligned, apart, and in the host region", async () => {
  await withProbe(async (plugin) => {
    const s = await json(plugin, "slots", { padding: "x".repeat(1001) });
    equal(s.outLenPtr % 4, 0);
    for (const ptr of [s.name, s.args, s.out]) equal(ptr % 8, 0);
    const ranges = [[s.name, s.nameLen], [s.args, s.argsLen], [s.out, s.capacity], [s.outLenPtr, 4]]
      .sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < ranges.length; i++) {
      ok(ranges[i - 1][0] + ranges[i - 1][1] <= ranges[i][0], "overlap");
    }
    for (const [start, len] of ranges) ok(start > 0 && start + len <= CORTEX_HEAP_BASE);
    ok(s.out >= HOST_HEAP_START);
    equal(s.capacity, 64 * 1024);
  });
});

Deno.test("a too-small output buffer gets exactly one retry with the size the plugin asked for", async () => {
  await withProbe(async (plugin) => {
    const result = await plugin.callTool("big", { n: 300_000 });
    ok(result.success);
    equal(result.output.length, 300_000);
    ok(result.output.startsWith("capacity=300000;"), result.output.slice(0, 20));
    const before = await json(plugin, "calls");
    const stubborn = await plugin.callTool("stubborn", {});
    deepEqual([stubborn.success, stubborn.code], [false, "output_too_large"]);
    const after = await json(plugin, "calls");
    equal(after.stubborn - before.stubborn, 2);
  });
});

Deno.test("an output larger than the limit is refused without a retry", async () => {
  await withProbe(async (plugin) => {
    const result = await plugin.callTool("big", { n: 600_000 });
    deepEqual([result.success, result.code], [false, "output_too_large"]);
    equal((await plugin.callTool("big", { n: 20 })).output, "capacity=65536;xxxxx");
  });
});

Deno.test("arguments over the limit are refused without calling the plugin", async () => {
  await withProbe(async (plugin) => {
    const before = await json(plugin, "calls");
    const result = await plugin.callTool("args", { text: "x".repeat(300_000) });
    deepEqual([result.success, result.code], [false, "args_too_large"]);
    equal((await json(plugin, "calls")).calls, before.calls + 1);
  });
});

Deno.test("arguments reach the plugin as the exact UTF-8 JSON, non-ASCII included", async () => {
  await withProbe(async (plugin) => {
    const args = { text: "naïve café ✓ 🎉 日本", nested: { list: [1, "二", null] } };
    const result = await plugin.callTool("args", args);
    equal(result.output, JSON.stringify(args));
  });
});

Deno.test("host imports accept unaligned pointers and length slots, with the too-small protocol", async () => {
  await withProbe(async (plugin) => {
    const value = "välue ✓ ok";
    equal((await plugin.callTool("set_state", { key: "k", value })).output, "ok");
    const r = await json(plugin, "odd_state", { key: "k" });
    deepEqual(r, {
      first: CORTEX_ERR_BUFFER_TOO_SMALL,
      needed: new TextEncoder().encode(value).length,
      second: CORTEX_OK,
      value,
    });
  });
});

Deno.test("host_get_time_ms is a full 64-bit millisecond clock", async () => {
  await withProbe(async (plugin) => {
    const before = Date.now();
    const ms = Number((await plugin.callTool("time", {})).output);
    const after = Date.now();
    ok(ms >= before && ms <= after, `${ms} not within [${before}, ${after}]`);
    ok(ms > 2 ** 32, "the value must not be cut to 32 bits");
  });
});

Deno.test("host_random fills the buffer with fresh random bytes", async () => {
  await withProbe(async (plugin) => {
    const a = (await plugin.callTool("random", { n: 32 })).output;
    const b = (await plugin.callTool("random", { n: 32 })).output;
    equal(a.length, 64);
    ok(a !== b);
    ok(!/^0+$/.test(a));
  });
});

Deno.test("host_alloc returns aligned blocks inside the host heap and reuses freed ones", async () => {
  await withProbe(async (plugin) => {
    const r = await json(plugin, "alloc", { size: 13 });
    for (const ptr of [r.a, r.b]) {
      equal(ptr % 8, 0);
      ok(ptr >= HOST_HEAP_START && ptr + 13 <= CORTEX_HEAP_BASE);
    }
    ok(r.b >= r.a + 16);
    equal(r.c, r.a);
    equal((await json(plugin, "alloc", { size: 2_000_000 })).a, 0);
  });
});

Deno.test("a non-zero return code is a tool failure carrying the plugin's message", async () => {
  await withProbe(async (plugin) => {
    deepEqual(await plugin.callTool("fail", {}), {
      success: false,
      output: "",
      code: "tool_failed",
      error: "it failed on purpose",
    });
  });
});

Deno.test("output that is not UTF-8 is a clear error", async () => {
  await withProbe(async (plugin) => {
    const result = await plugin.callTool("bad_utf8", {});
    deepEqual([result.success, result.code], [false, "bad_output"]);
  });
});
