/**
 * The MCP loader: a `kind: "mcp"` plugin is an MCP server. The runtime runs
 * the `initialize` handshake, registers each server tool as a tool of the
 * plugin (input schema and annotations kept), follows
 * `notifications/tools/list_changed`, and offers the documented synthetic
 * tool `mcp_<pluginName>` that sends any `{ method, params }` request.
 *
 * @module
 */
import { McpSupervisor, parseMcpEntryPoint } from "../../mcp-bridge/mod.ts";
import type { McpToolInfo } from "../../mcp-bridge/mod.ts";
import type { LoadedPlugin, LoadedTool, Loader, LoadRequest } from "../../runtime/loader.ts";
import { checkMcpServerAllowed } from "./mcp_policy.ts";

/** Loads MCP servers as plugins. */
export class McpLoader implements Loader {
  /** The loader's name. */
  readonly name = "mcp";

  /** Connects (handshake included) and lists the server's tools. */
  async load(request: LoadRequest): Promise<LoadedPlugin> {
    const { manifest, services } = request;
    const capabilities = new Set(request.capabilities);
    const spec = parseMcpEntryPoint(
      { entryPoint: manifest.entryPoint, mcp: manifest.mcp, capabilities: request.capabilities },
      { pluginDir: services.pluginDir, dataDir: services.dataDir },
    );
    checkMcpServerAllowed(spec, { plugin: manifest.name, capabilities, grants: request.grants });

    let registered = new Set<string>();
    let refreshing = false;
    // Until load returns, the runtime registers the first list itself; a change seen meanwhile
    // is followed once load is done.
    let loaded = false;
    let changedDuringLoad = false;
    const refresh = async () => {
      if (!loaded) {
        changedDuringLoad = true;
        return;
      }
      if (refreshing) return;
      refreshing = true;
      try {
        const next = toolsFrom(await supervisor.listTools());
        for (const name of registered) {
          if (!next.some((t) => t.definition.name === name)) services.unregisterTool(name);
        }
        for (const tool of next) {
          services.unregisterTool(tool.definition.name);
          services.registerTool(tool);
        }
        registered = new Set(next.map((t) => t.definition.name));
      } catch (error) {
        services.logger.error(`could not follow the server's tool list: ${(error as Error).message}`);
      } finally {
        refreshing = false;
      }
    };

    const supervisor = new McpSupervisor(spec, {
      requestTimeoutMs: request.timeoutMs,
      // Shorter than the load's own deadline, so a silent server is reported as one.
      initTimeoutMs: Math.max(1, Math.floor(request.timeoutMs * 0.8)),
      clientName: "cortex",
      onLog: (line) => services.logger.info(line),
      onToolsChanged: () => void refresh(),
      onDown: () => services.logger.warn("the MCP server went away; it restarts on the next call"),
    });

    const declared = manifest.tools?.length ? new Set(manifest.tools.map((t) => t.name)) : undefined;
    const toolsFrom = (infos: McpToolInfo[]): LoadedTool[] =>
      infos
        .filter((info) => {
          if (!declared || declared.has(info.name)) return true;
          services.logger.warn(`server tool "${info.name}" is not in the manifest's tools; not registered`);
          return false;
        })
        .map((info) => ({
          definition: { name: info.name, description: info.description ?? "", params: [], capabilities: [] },
          inputSchema: info.inputSchema,
          annotations: info.annotations,
          invoke: async (args, ctx) => {
            const result = await supervisor.callTool(info.name, args, { signal: ctx.signal });
            return { success: result.success, output: result.output, error: result.error };
          },
        }));

    let tools: LoadedTool[];
    try {
      tools = toolsFrom(await supervisor.listTools());
    } catch (error) {
      await supervisor.close();
      throw error;
    }
    registered = new Set(tools.map((t) => t.definition.name));

    const synthetic: LoadedTool = {
      definition: {
        name: `mcp_${manifest.name}`,
        description: `Sends one JSON-RPC request to the ${manifest.name} MCP server`,
        params: [
          { name: "method", type: "string", description: "JSON-RPC method to call", required: true },
          { name: "params", type: "object", description: "Method parameters", required: true },
        ],
        capabilities: [],
      },
      invoke: async (args, ctx) => {
        const result = await supervisor.request(String(args.method), args.params, { signal: ctx.signal });
        return { success: true, output: JSON.stringify(result) };
      },
    };

    return {
      tools: [synthetic, ...tools],
      hooks: new Set(["onActivate"]),
      callHook: (name) => {
        // Tools are registered by now: from here on, list changes are followed.
        if (name === "onActivate") {
          loaded = true;
          if (changedDuringLoad) void refresh();
        }
        return Promise.resolve();
      },
      unload: async () => await supervisor.close(),
    };
  }
}
