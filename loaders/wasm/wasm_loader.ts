/**
 * The WASM loader: a `kind: "wasm"` plugin runs in its own Worker (never on
 * the daemon's main thread) through the ABI v1 host in `wasm-abi/`. Its tools
 * come from `plugin_get_capabilities` and go through the one call path like
 * any other tool.
 *
 * @module
 */
import { isPublicHost, startWasmPlugin } from "../../wasm-abi/mod.ts";
import { CortexError } from "../../runtime/errors.ts";
import type { LoadedPlugin, Loader, LoadRequest } from "../../runtime/loader.ts";
import type { Manifest } from "../../manifest/types.ts";

/** Linear memory pages per MiB (64 KiB pages). */
const PAGES_PER_MIB = 16;

/** Loads WebAssembly plugins, each in its own Worker. */
export class WasmLoader implements Loader {
  /** The loader's name. */
  readonly name = "wasm";

  /**
   * Checks a module at install: it must be WebAssembly with the required
   * exports, ABI version 1, only imports the runtime offers, a start function
   * that does not trap, and capabilities that parse and name tools. It runs
   * in its own Worker with inert services, and is stopped at once.
   */
  async check(manifest: Manifest, entryFile: string | undefined): Promise<void> {
    if (!entryFile) throw new CortexError("entry_missing", `plugin ${manifest.name} has no .wasm entry file`);
    const plugin = await startWasmPlugin(await Deno.readFile(entryFile), {
      pluginId: manifest.name,
      maxMemoryPages: manifest.limits?.maxMemoryMb ? manifest.limits.maxMemoryMb * PAGES_PER_MIB : undefined,
      callTimeoutMs: 5_000,
      allowNetwork: false,
      services: {
        getConfig: () => Promise.resolve(null),
        getState: () => Promise.resolve(null),
        setState: () => Promise.resolve(),
        log: () => {},
      },
    });
    await plugin.close();
  }

  /** Validates and starts the module, and exposes its tools. */
  async load(request: LoadRequest): Promise<LoadedPlugin> {
    const { manifest, services } = request;
    if (!request.entryFile) {
      throw new CortexError("entry_missing", `plugin ${manifest.name} has no .wasm entry file`);
    }
    const capabilities = new Set(request.capabilities);
    const allowNetwork = capabilities.has("network:fetch") || capabilities.has("net:outbound");
    // Loopback and private addresses stay refused unless the person granted that exact host.
    const granted = new Set([
      ...(request.grants["network:fetch"] ?? []),
      ...(request.grants["net:outbound"] ?? []),
    ]);
    const isHostAllowed = async (url: URL) =>
      granted.has(url.host) || granted.has(url.hostname) || await isPublicHost(url);
    const plugin = await startWasmPlugin(await Deno.readFile(request.entryFile), {
      pluginId: manifest.name,
      maxMemoryPages: manifest.limits?.maxMemoryMb ? manifest.limits.maxMemoryMb * PAGES_PER_MIB : undefined,
      callTimeoutMs: request.timeoutMs,
      allowNetwork,
      isHostAllowed,
      services: {
        getConfig: (key) => services.config.get(key),
        getState: (key) => services.state.get(key),
        setState: (key, value) => services.state.set(key, value),
        log: (level, msg) => services.logger[level](msg),
      },
    });
    return {
      tools: plugin.tools.map((tool) => ({
        definition: { name: tool.name, description: tool.description, params: [], capabilities: [] },
        inputSchema: tool.inputSchema,
        invoke: async (args, ctx) => {
          const result = await plugin.callTool(tool.name, args, { signal: ctx.signal });
          return {
            success: result.success,
            output: result.output,
            error: result.error === undefined
              ? undefined
              : result.code
              ? `${result.code}: ${result.error}`
              : result.error,
          };
        },
      })),
      hooks: new Set(),
      callHook: () => Promise.resolve(),
      unload: async () => await plugin.close(),
    };
  }
}
