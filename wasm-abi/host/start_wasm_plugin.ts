import { CortexError } from "../../runtime/errors.ts";
import { HOST_REGION_PAGES } from "./abi.ts";
import { parseCapabilities } from "./capabilities.ts";
import type { WorkerLimits } from "./messages.ts";
import { checkModule } from "./module_check.ts";
import { WasmPluginHost } from "./plugin_host.ts";
import type { WasmPlugin, WasmPluginOptions } from "./types.ts";
import { type SessionSettings, WorkerSession } from "./worker_session.ts";

const KiB = 1024;
const MiB = 1024 * KiB;

/** Default limits of a plugin, in the units their names say. */
export const WASM_PLUGIN_DEFAULTS = {
  maxMemoryPages: 512,
  callTimeoutMs: 10_000,
  httpTimeoutMs: 10_000,
  maxHttpResponseBytes: 1 * MiB,
  initialOutputBytes: 64 * KiB,
  maxOutputBytes: 512 * KiB,
  maxArgsBytes: 256 * KiB,
  maxLogBytes: 16 * KiB,
} as const;

function positive(name: string, value: number | undefined, fallback: number): number {
  const chosen = value ?? fallback;
  if (!Number.isInteger(chosen) || chosen <= 0) {
    throw new CortexError("bad_option", `${name} must be a positive integer, found ${value}`);
  }
  return chosen;
}

/**
 * Starts one WASM plugin (ABI v1) in its own Worker and returns it once its
 * capabilities are read. The module is checked first; every problem is a
 * CortexError with a stable code: `not_wasm`, `unknown_import`, `bad_import`,
 * `missing_export`, `bad_export`, `unsupported_memory`, `memory_limit`,
 * `bad_memory_layout`, `start_trapped`, `abi_mismatch`, `init_failed`,
 * `bad_capabilities`, `no_tools`, `start_timeout`, `sandbox_unavailable`.
 *
 * @example
 * ```ts
 * import { startWasmPlugin } from "./start_wasm_plugin.ts";
 *
 * const state = new Map<string, string>();
 * const plugin = await startWasmPlugin(await Deno.readFile("examples/wasm/echo-c/echo.wasm"), {
 *   pluginId: "echo-c",
 *   allowNetwork: false,
 *   services: {
 *     getConfig: () => Promise.resolve(undefined),
 *     getState: (key) => Promise.resolve(state.get(key) ?? null),
 *     setState: (key, value) => Promise.resolve(void state.set(key, value)),
 *     log: (level, message) => console.log(level, message),
 *   },
 * });
 * console.log(await plugin.callTool("echo", { text: "hi" })); // { success: true, output: "hi" }
 * await plugin.close();
 * ```
 */
export async function startWasmPlugin(wasm: Uint8Array, options: WasmPluginOptions): Promise<WasmPlugin> {
  if (!options.pluginId) throw new CortexError("bad_option", "pluginId must not be empty");
  const d = WASM_PLUGIN_DEFAULTS;
  const maxPages = positive("maxMemoryPages", options.maxMemoryPages, d.maxMemoryPages);
  if (maxPages < HOST_REGION_PAGES + 1 || maxPages > 65536) {
    throw new CortexError("bad_option", `maxMemoryPages must be between ${HOST_REGION_PAGES + 1} and 65536`);
  }
  const callTimeoutMs = positive("callTimeoutMs", options.callTimeoutMs, d.callTimeoutMs);
  const maxHttpResponseBytes = positive(
    "maxHttpResponseBytes",
    options.maxHttpResponseBytes,
    d.maxHttpResponseBytes,
  );
  const checked = checkModule(wasm, maxPages);
  const limits: WorkerLimits = {
    initialOutputBytes: d.initialOutputBytes,
    maxOutputBytes: d.maxOutputBytes,
    maxArgsBytes: d.maxArgsBytes,
    maxTransferBytes: Math.max(MiB, maxHttpResponseBytes),
    maxLogBytes: d.maxLogBytes,
    importedMemory: checked.importedMemory,
  };
  const settings: SessionSettings = {
    pluginId: options.pluginId,
    wasm: checked.bytes,
    limits,
    services: options.services,
    http: {
      allowNetwork: options.allowNetwork,
      isHostAllowed: options.isHostAllowed,
      timeoutMs: positive("httpTimeoutMs", options.httpTimeoutMs, d.httpTimeoutMs),
      maxResponseBytes: maxHttpResponseBytes,
    },
    startTimeoutMs: callTimeoutMs,
  };
  const { session, capabilities } = await WorkerSession.start(settings);
  try {
    return new WasmPluginHost(settings, session, parseCapabilities(capabilities), callTimeoutMs);
  } catch (error) {
    session.terminate();
    throw error;
  }
}
