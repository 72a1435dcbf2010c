import type { PluginContext, Tool, ToolExecutionContext } from "../plugin_api/types.ts";
import type { LoadedTool, PluginServices } from "./loader.ts";
import type { ToolCallContext } from "./tool_registry.ts";
import { z } from "zod";
import { CortexError } from "./errors.ts";
import { formatIssues } from "../manifest/format_issues.ts";
import { toolParamSchema } from "../manifest/schema.ts";
import { TOOL_CAPABILITIES } from "../manifest/capabilities.ts";

/** The shape an exported or registered tool must have. */
export const pluginToolSchema = z.object({
  definition: z.object({
    name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "a tool name has 1 to 64 letters, digits, '_' or '-'"),
    description: z.string().default(""),
    params: z.array(toolParamSchema).default([]),
    capabilities: z.array(z.enum(TOOL_CAPABILITIES)).default([]),
  }).loose(),
  execute: z.custom<Tool["execute"]>((v) => typeof v === "function", "execute must be a function"),
}).loose();

/** Checks a tool object from plugin code, naming what is wrong. */
export function parsePluginTool(value: unknown, where: string): Tool {
  const parsed = pluginToolSchema.safeParse(value);
  if (!parsed.success) {
    throw new CortexError(
      "tool_undeclared",
      `${where} is not a valid tool: ${formatIssues(parsed.error.issues, value).join("; ")}`,
    );
  }
  return parsed.data as unknown as Tool;
}

/** Builds the PluginContext a plugin's code sees, over its host services. */
export function createPluginContext(services: PluginServices): PluginContext {
  const ctx: PluginContext = {
    pluginId: services.pluginId,
    pluginDir: services.pluginDir,
    dataDir: services.dataDir,
    state: services.state,
    config: services.config,
    logger: services.logger,
    host: {
      registerTool: (tool: Tool) => {
        services.registerTool(toLoadedTool(parsePluginTool(tool, "the registered tool"), ctx));
      },
      unregisterTool: (name: string) => services.unregisterTool(name),
    },
  };
  return ctx;
}

/** The one object `execute` receives: ToolContext fields plus the PluginContext. */
export function mergeToolContext(plugin: PluginContext, call: ToolCallContext): ToolExecutionContext {
  return {
    sessionId: call.sessionId,
    workingDir: call.workingDir,
    agentId: call.agentId,
    workspaceDir: call.workspaceDir,
    caller: call.caller,
    signal: call.signal,
    pluginId: plugin.pluginId,
    pluginDir: plugin.pluginDir,
    dataDir: plugin.dataDir,
    state: plugin.state,
    config: plugin.config,
    logger: plugin.logger,
    host: plugin.host,
  };
}

/** Wraps an in-process tool object as a {@link LoadedTool}. */
export function toLoadedTool(tool: Tool, plugin: PluginContext): LoadedTool {
  return {
    definition: tool.definition,
    invoke: async (args, call) => await tool.execute(args, mergeToolContext(plugin, call)),
  };
}
