import { match, rejects } from "node:assert/strict";
import type { CortexError } from "../../runtime/errors.ts";
import { startWasmPlugin } from "./start_wasm_plugin.ts";
import { memoryServices, pluginWat, type PluginWatParts, testOptions, wat } from "./test_util.ts";
import type { WasmPluginOptions } from "./types.ts";

async function refused(
  bytes: Uint8Array | Promise<Uint8Array>,
  code: string,
  message: RegExp,
  options: Partial<WasmPluginOptions> = {},
): Promise<void> {
  await rejects(
    startWasmPlugin(await bytes, testOptions(memoryServices().services, options)),
    (e: CortexError) => {
      if (e.code !== code) throw new Error(`expected code ${code}, got ${e.code}: ${e.message}`);
      match(e.message, message);
      return true;
    },
  );
}

const module = (parts: PluginWatParts) => wat(pluginWat(parts));

Deno.test("bytes that are not WebAssembly are refused with not_wasm", async () => {
  await refused(new TextEncoder().encode("#!/bin/sh\necho hi\n"), "not_wasm", /not a WebAssembly module/);
  const truncated = (await module({})).slice(0, 40);
  await refused(truncated, "not_wasm", /WebAssembly/);
});

Deno.test("a module without a required export is refused with missing_export", async () => {
  await refused(module({ omit: ["plugin_execute_tool"] }), "missing_export", /plugin_execute_tool/);
  await refused(module({ omit: ["plugin_get_abi_version"] }), "missing_export", /plugin_get_abi_version/);
  await refused(module({ omit: ["memory"] }), "missing_export", /memory/);
});

Deno.test("an export with the wrong signature is refused with bad_export", async () => {
  const parts = {
    omit: ["plugin_execute_tool"],
    extra: '(func (export "plugin_execute_tool") (param i32 i32) (result i32) i32.const 0)',
  };
  await refused(
    module(parts),
    "bad_export",
    /plugin_execute_tool must have the signature \(i32, i32, i32, i32, i32, i32\)/,
  );
});

Deno.test("a module speaking another ABI version is refused with abi_mismatch", async () => {
  await refused(module({ abiVersion: 2 }), "abi_mismatch", /ABI version 2/);
});

Deno.test("capabilities that do not parse, or name no tools, are refused", async () => {
  await refused(module({ capabilities: "{not json" }), "bad_capabilities", /valid JSON/);
  await refused(module({ capabilities: '{"tools":{"name":"x"}}' }), "bad_capabilities", /tools/);
  await refused(module({ capabilities: '{"abi_version":1,"tools":[]}' }), "no_tools", /no tools/);
  await refused(module({ capabilities: '{"abi_version":1}' }), "no_tools", /no tools/);
  const trapping = '(func (export "plugin_get_capabilities") (param i32 i32) (result i32) unreachable)';
  await refused(
    module({ omit: ["plugin_get_capabilities"], extra: trapping }),
    "bad_capabilities",
    /plugin_get_capabilities failed: .*unreachable/,
  );
});

Deno.test("an import the runtime does not offer is refused with unknown_import", async () => {
  await refused(
    module({ imports: '(import "env" "host_open_file" (func))' }),
    "unknown_import",
    /env\.host_open_file/,
  );
  await refused(
    module({
      imports: '(import "wasi_snapshot_preview1" "fd_write" (func (param i32 i32 i32 i32) (result i32)))',
    }),
    "unknown_import",
    /wasi_snapshot_preview1\.fd_write/,
  );
  await refused(
    module({ imports: '(import "env" "host_get_time_ms" (func (result i32)))' }),
    "bad_import",
    /host_get_time_ms must have the signature \(\) -> \(i64\)/,
  );
});

Deno.test("a start function or plugin_init that traps is refused", async () => {
  await refused(module({ extra: "(func $boom unreachable) (start $boom)" }), "start_trapped", /unreachable/);
  await refused(module({ extra: '(func (export "plugin_init") unreachable)' }), "init_failed", /plugin_init/);
});

Deno.test("a start function that never returns is stopped with start_timeout", async () => {
  await refused(
    module({ extra: "(func $spin (loop $l (br $l))) (start $spin)" }),
    "start_timeout",
    /300 ms/,
    {
      callTimeoutMs: 300,
    },
  );
});

Deno.test("memory beyond the limit, shared, or overlapping the host region is refused", async () => {
  await refused(module({ memory: '(memory (export "memory") 1000)' }), "memory_limit", /1000 memory pages/);
  await refused(
    module({ imports: '(import "env" "memory" (memory 100))', memory: "" }),
    "memory_limit",
    /100 memory pages.*limit of 64/,
    { maxMemoryPages: 64 },
  );
  await refused(
    module({ memory: '(memory (export "memory") 32 64 shared)' }),
    "unsupported_memory",
    /shared/,
  );
  await refused(module({ extra: '(data (i32.const 1024) "low")' }), "bad_memory_layout", /0x400/);
  await refused(module({}), "bad_option", /maxMemoryPages/, { maxMemoryPages: 8 });
});
