/**
 * Shared pieces of the WASM host tests: in-memory services, modules built
 * from source, and small modules written in WebAssembly text.
 *
 * @module
 */

import wabtInit from "wabt";
import { buildExamples, compileC, REPO_ROOT } from "../build_examples.ts";
import type { WasmLogLevel, WasmPluginOptions, WasmPluginServices } from "./types.ts";

/** Services backed by maps, with everything the plugin logged. */
export interface MemoryServices {
  /** The services to pass to startWasmPlugin. */
  services: WasmPluginServices;
  /** The state store. */
  state: Map<string, string>;
  /** Log lines as `level: message`. */
  logs: string[];
}

/** In-memory services; `config` is the plugin's config section. */
export function memoryServices(
  config: Record<string, unknown> = {},
  state = new Map<string, string>(),
): MemoryServices {
  const logs: string[] = [];
  return {
    state,
    logs,
    services: {
      getConfig: (key) => Promise.resolve(config[key]),
      getState: (key) => Promise.resolve(state.get(key) ?? null),
      setState: (key, value) => Promise.resolve(void state.set(key, value)),
      log: (level: WasmLogLevel, message: string) => void logs.push(`${level}: ${message}`),
    },
  };
}

/** Options for a test plugin: no network, short deadline, in-memory services. */
export function testOptions(
  services: WasmPluginServices,
  extra: Partial<WasmPluginOptions> = {},
): WasmPluginOptions {
  return { pluginId: "test", allowNetwork: false, callTimeoutMs: 5000, services, ...extra };
}

async function inTempDir<T>(run: (dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "cortex-wasm-" });
  try {
    return await run(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Builds both examples from source (C and AssemblyScript). */
export function buildExampleModules(): Promise<{ echoC: Uint8Array; echoAs: Uint8Array }> {
  return inTempDir(async (dir) => {
    const built = await buildExamples({ outDir: dir });
    return { echoC: await Deno.readFile(built.c), echoAs: await Deno.readFile(built.as) };
  });
}

/** Builds the probe plugin (wasm-abi/host/testdata/probe.c) from source. */
export function buildProbe(): Promise<Uint8Array> {
  return inTempDir(async (dir) => {
    await compileC(`${REPO_ROOT}wasm-abi/host/testdata/probe.c`, `${dir}/probe.wasm`);
    return await Deno.readFile(`${dir}/probe.wasm`);
  });
}

let wabt: ReturnType<typeof wabtInit> | undefined;

/** Assembles WebAssembly text to module bytes. */
export async function wat(text: string): Promise<Uint8Array> {
  wabt ??= wabtInit();
  const module = (await wabt).parseWat("test.wat", text, { bulk_memory: true, threads: true });
  try {
    return new Uint8Array(module.toBinary({}).buffer);
  } finally {
    module.destroy();
  }
}

/** Escapes text for a WAT string literal. */
function watString(text: string): string {
  return [...new TextEncoder().encode(text)].map((b) => `\\${b.toString(16).padStart(2, "0")}`).join("");
}

/** Parts of a minimal valid plugin in WAT, each replaceable by a test. */
export interface PluginWatParts {
  /** Extra imports and module fields placed first. */
  imports?: string;
  /** The memory declaration. */
  memory?: string;
  /** Capabilities JSON the plugin returns. */
  capabilities?: string;
  /** The value plugin_get_abi_version returns. */
  abiVersion?: number;
  /** Body of plugin_execute_tool (params: name, nameLen, args, argsLen, out, outLenPtr). */
  execute?: string;
  /** Extra module fields (functions, start, exports). */
  extra?: string;
  /** Exports to leave out. */
  omit?: string[];
}

/**
 * A minimal ABI v1 plugin: its capabilities live at 0x100000 and
 * plugin_execute_tool answers "ok" unless the test says otherwise.
 */
export function pluginWat(parts: PluginWatParts = {}): string {
  const caps = parts.capabilities ?? '{"abi_version":1,"tools":[{"name":"t","params":[]}]}';
  const capsLen = new TextEncoder().encode(caps).length;
  const exported = (name: string) => (parts.omit?.includes(name) ? "" : `(export "${name}")`);
  return `(module
  ${parts.imports ?? ""}
  ${parts.memory ?? `(memory ${exported("memory")} 32)`}
  (data (i32.const 0x100000) "${watString(caps)}")
  (data (i32.const 0x180000) "ok")
  (func ${exported("plugin_get_abi_version")} (result i32) i32.const ${parts.abiVersion ?? 1})
  (func ${exported("plugin_get_capabilities")} (param $out i32) (param $len i32) (result i32)
    (memory.copy (local.get $out) (i32.const 0x100000) (i32.const ${capsLen}))
    (i32.store (local.get $len) (i32.const ${capsLen}))
    i32.const 0)
  (func ${exported("plugin_execute_tool")}
    (param $name i32) (param $nameLen i32) (param $args i32) (param $argsLen i32) (param $out i32) (param $len i32)
    (result i32)
    ${
    parts.execute ?? `(memory.copy (local.get $out) (i32.const 0x180000) (i32.const 2))
    (i32.store (local.get $len) (i32.const 2))
    i32.const 0`
  })
  ${parts.extra ?? ""}
)`;
}
