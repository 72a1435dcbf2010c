import { deepEqual, equal, ok } from "node:assert/strict";
import { CORTEX_ERR, CORTEX_OK } from "./abi.ts";
import { startWasmPlugin } from "./start_wasm_plugin.ts";
import { buildProbe, memoryServices, testOptions } from "./test_util.ts";

const probe = await buildProbe();

Deno.test("config values come from the plugin's section: strings as-is, others as JSON", async () => {
  const config = { token: "s3cr3t ✓", limit: 42, nested: { a: [1, 2] } };
  const plugin = await startWasmPlugin(probe, testOptions(memoryServices(config).services));
  try {
    const read = async (key: string) => JSON.parse((await plugin.callTool("config", { key })).output);
    deepEqual(await read("token"), { rc: CORTEX_OK, value: "s3cr3t ✓" });
    deepEqual(await read("limit"), { rc: CORTEX_OK, value: "42" });
    deepEqual(await read("nested"), { rc: CORTEX_OK, value: '{"a":[1,2]}' });
    deepEqual(await read("absent"), { rc: CORTEX_ERR, value: "" });
  } finally {
    await plugin.close();
  }
});

Deno.test("state written by the runtime is read by the plugin, and the plugin's writes persist", async () => {
  const { services, state } = memoryServices({}, new Map([["seeded", "from the runtime"]]));
  const plugin = await startWasmPlugin(probe, testOptions(services));
  try {
    const seeded = JSON.parse((await plugin.callTool("odd_state", { key: "seeded" })).output);
    equal(seeded.value, "from the runtime");
    await plugin.callTool("set_state", { key: "written", value: "by the plugin ✓" });
    equal(state.get("written"), "by the plugin ✓");
    const missing = JSON.parse((await plugin.callTool("odd_state", { key: "nothing" })).output);
    equal(missing.first, CORTEX_ERR);
  } finally {
    await plugin.close();
  }
});

Deno.test("host_log reaches the log service", async () => {
  const { services, logs } = memoryServices();
  const plugin = await startWasmPlugin(probe, testOptions(services));
  try {
    await plugin.callTool("log", { text: "hello from wasm ✓" });
    deepEqual(logs, ["info: hello from wasm ✓"]);
  } finally {
    await plugin.close();
  }
});

Deno.test("a state store that fails makes the call fail with state_failed, and the plugin recovers", async () => {
  const { services, logs } = memoryServices();
  services.setState = () => Promise.reject(new Error("disk full"));
  services.getState = () => Promise.reject(new Error("disk gone"));
  const plugin = await startWasmPlugin(probe, testOptions(services));
  try {
    const write = await plugin.callTool("set_state", { key: "k", value: "v" });
    deepEqual([write.success, write.code], [false, "state_failed"]);
    const read = JSON.parse((await plugin.callTool("odd_state", { key: "k" })).output);
    equal(read.first, CORTEX_ERR);
    ok(logs.some((line) => line.startsWith("warn: host set_state failed: disk full")), logs.join("\n"));
    deepEqual(await plugin.callTool("log", { text: "still here" }), { success: true, output: "logged" });
  } finally {
    await plugin.close();
  }
});
