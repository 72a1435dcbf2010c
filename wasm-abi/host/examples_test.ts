import { deepEqual } from "node:assert/strict";
import { REPO_ROOT } from "../build_examples.ts";
import { startWasmPlugin } from "./start_wasm_plugin.ts";
import { buildExampleModules, memoryServices, testOptions } from "./test_util.ts";

const fixtures = await buildExampleModules();
const examples = [
  { label: "C", dir: "echo-c", wasm: fixtures.echoC },
  { label: "AssemblyScript", dir: "echo-as", wasm: fixtures.echoAs },
];

for (const { label, dir, wasm } of examples) {
  Deno.test(`${label} example built from source declares the tools of its manifest`, async () => {
    const manifest = JSON.parse(await Deno.readTextFile(`${REPO_ROOT}examples/wasm/${dir}/manifest.json`));
    const plugin = await startWasmPlugin(wasm, testOptions(memoryServices().services));
    try {
      const declared = plugin.tools.map(({ name, description, params }) => ({ name, description, params }));
      deepEqual(declared, manifest.tools);
      deepEqual(plugin.tools[1].inputSchema.required, ["a", "b"]);
    } finally {
      await plugin.close();
    }
  });

  Deno.test(`${label} example echoes text, non-ASCII included, and adds numbers`, async () => {
    const plugin = await startWasmPlugin(wasm, testOptions(memoryServices().services));
    try {
      const text = 'héllo wörld ✓ 🎉 "quoted" \\ back\nslash\ttab \u0001 日本語';
      deepEqual(await plugin.callTool("echo", { text }), { success: true, output: text });
      deepEqual(await plugin.callTool("add", { a: 2, b: 40 }), { success: true, output: "42" });
      deepEqual(await plugin.callTool("add", { a: 1.5, b: -2.25 }), { success: true, output: "-0.75" });
      const missing = await plugin.callTool("add", { a: 1 });
      deepEqual([missing.success, missing.code], [false, "tool_failed"]);
      deepEqual(missing.error, "add needs numbers 'a' and 'b'");
    } finally {
      await plugin.close();
    }
  });

  Deno.test(`${label} example returns an output larger than the first buffer`, async () => {
    const plugin = await startWasmPlugin(wasm, testOptions(memoryServices().services));
    try {
      const text = "ü".repeat(100_000); // 200 000 bytes of UTF-8, over the 64 KiB first buffer
      deepEqual(await plugin.callTool("echo", { text }), { success: true, output: text });
    } finally {
      await plugin.close();
    }
  });

  Deno.test(`${label} example keeps its count in state across restarts`, async () => {
    const { services, state } = memoryServices();
    const first = await startWasmPlugin(wasm, testOptions(services));
    try {
      deepEqual((await first.callTool("count", {})).output, "1");
      deepEqual((await first.callTool("count", {})).output, "2");
    } finally {
      await first.close();
    }
    const second = await startWasmPlugin(wasm, testOptions(services));
    try {
      deepEqual((await second.callTool("count", {})).output, "3");
      deepEqual(state.get("count"), "3");
    } finally {
      await second.close();
    }
  });

  Deno.test(`${label} example greets with the greeting from its config section`, async () => {
    const configured = await startWasmPlugin(
      wasm,
      testOptions(memoryServices({ greeting: "Bonjour" }).services),
    );
    const unconfigured = await startWasmPlugin(wasm, testOptions(memoryServices().services));
    try {
      deepEqual((await configured.callTool("greet", { name: "Zoë" })).output, "Bonjour, Zoë!");
      deepEqual((await unconfigured.callTool("greet", { name: "Zoë" })).output, "Hello, Zoë!");
    } finally {
      await configured.close();
      await unconfigured.close();
    }
  });

  Deno.test(`${label} example's committed echo.wasm runs without a compiler`, async () => {
    const committed = await Deno.readFile(`${REPO_ROOT}examples/wasm/${dir}/echo.wasm`);
    const plugin = await startWasmPlugin(committed, testOptions(memoryServices().services));
    try {
      deepEqual(plugin.tools.map((t) => t.name), ["echo", "add", "count", "greet"]);
      deepEqual(await plugin.callTool("echo", { text: "installed" }), { success: true, output: "installed" });
    } finally {
      await plugin.close();
    }
  });
}
