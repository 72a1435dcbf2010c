import type { ToolSource } from "../mcp-bridge/mod.ts";
import { CortexError } from "../runtime/errors.ts";
import { isCallerLabel } from "../runtime/policy.ts";
import type { Runtime } from "../runtime/runtime.ts";

/**
 * The runtime as the MCP server sees it: every tool of every active plugin,
 * called through the one call path with the caller label the MCP server
 * builds (`agent:<client name>`).
 */
export function runtimeToolSource(runtime: Runtime): ToolSource {
  return {
    listTools: () =>
      runtime.tools().map((t) => ({
        name: t.qualifiedName,
        description: t.description,
        inputSchema: t.inputSchema,
        annotations: t.annotations,
      })),
    callTool: async (name, args, caller) => {
      // Client names are free text; the label keeps only the characters a caller label may hold.
      const label = `agent:${caller.label.replace(/^agent:/, "").replace(/[^A-Za-z0-9._:@-]+/g, "-")}`;
      if (!isCallerLabel(label)) throw new CortexError("usage", `"${caller.label}" cannot be a caller label`);
      const result = await runtime.call(name, args, { caller: label, signal: caller.signal });
      return { success: result.success, output: result.output, error: result.error };
    },
    onToolsChanged: (listener) => runtime.registry.onChange(listener),
    describe: () => ({
      runtime: "cortex",
      plugins: runtime.plugins().map((row) => ({
        name: row.name,
        version: row.version,
        kind: row.type,
        trust: row.trust_level,
        status: row.status,
        active: runtime.isActive(row.name),
        capabilities: row.effective_permissions ? row.effective_permissions.split(",") : [],
        tools: runtime.tools(row.name).map((t) => t.qualifiedName),
      })),
    }),
  };
}
