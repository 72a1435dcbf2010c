import { deepEqual, equal } from "node:assert/strict";
import { limitMemorySection, readModuleInfo } from "./wasm_binary.ts";
import { pluginWat, wat } from "./test_util.ts";

Deno.test("module info lists imports with signatures, exports, memory and data offsets", async () => {
  const bytes = await wat(pluginWat({ imports: '(import "env" "host_get_time_ms" (func (result i64)))' }));
  const info = readModuleInfo(bytes);
  deepEqual(info.imports, [{
    module: "env",
    name: "host_get_time_ms",
    kind: "func",
    signature: { params: [], results: ["i64"] },
  }]);
  deepEqual(info.exports.find((e) => e.name === "plugin_get_capabilities")?.signature, {
    params: ["i32", "i32"],
    results: ["i32"],
  });
  deepEqual(info.memories, [{ min: 32, max: undefined, shared: false, memory64: false }]);
  deepEqual(info.dataOffsets, [0x100000, 0x180000]);
});

Deno.test("limiting the memory section sets its maximum and keeps the module valid", async () => {
  const bytes = await wat(pluginWat({ memory: '(memory (export "memory") 32 1000)' }));
  const limited = limitMemorySection(bytes, readModuleInfo(bytes), 200);
  equal(WebAssembly.validate(limited), true);
  deepEqual(readModuleInfo(limited).memories, [{ min: 32, max: 200, shared: false, memory64: false }]);
  const memory = new WebAssembly.Instance(new WebAssembly.Module(limited)).exports
    .memory as WebAssembly.Memory;
  equal(memory.grow(168), 32);
  let refused = false;
  try {
    memory.grow(1);
  } catch {
    refused = true;
  }
  equal(refused, true);
});
