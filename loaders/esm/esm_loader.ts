/**
 * The trusted ESM loader: imports the plugin's entry module into the host
 * process. Only plugins the person marked `trusted` ever reach it; the
 * runtime refuses to hand it anything else.
 *
 * @module
 */
import { pathToFileURL } from "node:url";
import type { PluginModule } from "../../plugin_api/types.ts";
import { CortexError } from "../../runtime/errors.ts";
import type { HookName, LoadedPlugin, Loader, LoadRequest } from "../../runtime/loader.ts";
import { createPluginContext, parsePluginTool, toLoadedTool } from "../../runtime/plugin_context.ts";

const HOOKS: readonly HookName[] = [
  "onInstall",
  "onLoad",
  "onActivate",
  "onDeactivate",
  "onUnload",
  "onUninstall",
];

/** Loads trusted ESM plugins in process. */
export class EsmInProcessLoader implements Loader {
  /** The loader's name. */
  readonly name = "esm-in-process";

  /** Imports the entry module and exposes its exports. */
  async load(request: LoadRequest): Promise<LoadedPlugin> {
    if (request.row.trust_level !== "trusted") {
      throw new CortexError(
        "sandbox_unavailable",
        `plugin ${request.row.name} is ${request.row.trust_level}; only trusted plugins run in process`,
      );
    }
    if (!request.entryFile) {
      throw new CortexError("entry_missing", `plugin ${request.row.name} has no entry file`);
    }
    // The tree hash in the URL makes a reinstalled plugin load fresh code rather than a cached module.
    const url = `${pathToFileURL(request.entryFile).href}?tree=${request.row.tree_hash.slice(0, 16)}`;
    let mod: PluginModule;
    try {
      mod = await import(url) as PluginModule;
    } catch (error) {
      throw new CortexError(
        "hook_failed",
        `importing ${request.row.name} failed: ${(error as Error)?.message ?? String(error)}`,
        { cause: error },
      );
    }
    const ctx = createPluginContext(request.services);
    const exported = mod.tools ?? [];
    if (!Array.isArray(exported)) {
      throw new CortexError(
        "tool_undeclared",
        `plugin ${request.row.name} exports "tools" that is not an array`,
      );
    }
    const tools = exported.map((t, i) => toLoadedTool(parsePluginTool(t, `tools[${i}]`), ctx));
    const hooks = new Set(HOOKS.filter((h) => typeof mod[h] === "function"));
    return {
      tools,
      hooks,
      callHook: async (name) => {
        const hook = mod[name];
        if (typeof hook === "function") await hook(ctx);
      },
      configChanged: typeof mod.onConfigChange === "function"
        ? async (key, value) => await mod.onConfigChange!(key, value, ctx)
        : undefined,
      deliverEvent: typeof mod.onEvent === "function"
        ? (type, payload) => {
          Promise.resolve().then(() => mod.onEvent!(type, payload, ctx)).catch((error) =>
            ctx.logger.error(`onEvent(${type}) failed: ${(error as Error)?.message ?? error}`)
          );
        }
        : undefined,
      preMiddleware: typeof mod.preMiddleware === "function"
        ? async (toolName, args, _signal, call) => await mod.preMiddleware!(toolName, args, ctx, call)
        : undefined,
      postMiddleware: typeof mod.postMiddleware === "function"
        ? async (toolName, result, _signal, call) => await mod.postMiddleware!(toolName, result, ctx, call)
        : undefined,
      unload: () => Promise.resolve(),
    };
  }
}
