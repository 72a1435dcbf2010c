/**
 * A tool as an MCP server lists it, checked before the runtime trusts it.
 *
 * @module
 */

/** One tool of an MCP server, as the runtime registers it. */
export interface McpToolInfo {
  /** The server's name for the tool (1 to 128 letters, digits, `_`, `-`, `.`, `/`). */
  name: string;
  /** What the tool does, as the server says (at most 8 KiB). */
  description: string;
  /** The tool's input JSON Schema (always `type: "object"`). */
  inputSchema: Record<string, unknown>;
  /** MCP hints such as `readOnlyHint` and `destructiveHint`; empty when the server gave none. */
  annotations: Record<string, unknown>;
  /** The JSON Schema of the tool's structured output, if it declares one. */
  outputSchema?: Record<string, unknown>;
}

const TOOL_NAME = /^[A-Za-z0-9_.\/-]{1,128}$/;
const MAX_DESCRIPTION = 8 * 1024;

/**
 * Checks one listed tool; returns `undefined` (with the reason) for a tool
 * the runtime should not register.
 *
 * @example
 * ```ts
 * import { toToolInfo } from "./tool_info.ts";
 * const checked = toToolInfo({ name: "echo", inputSchema: { type: "object" } });
 * // checked.tool?.name === "echo"
 * ```
 */
export function toToolInfo(raw: unknown): { tool?: McpToolInfo; reason?: string } {
  if (!isRecord(raw)) return { reason: "a listed tool is not an object" };
  const { name, description, inputSchema, annotations, outputSchema } = raw;
  if (typeof name !== "string" || !TOOL_NAME.test(name)) {
    return {
      reason: `tool name ${JSON.stringify(String(name).slice(0, 40))} is not 1 to 128 of [A-Za-z0-9_./-]`,
    };
  }
  if (!isRecord(inputSchema) || inputSchema.type !== "object") {
    return { reason: `tool ${name} has no object inputSchema` };
  }
  const text = typeof description === "string" ? description : "";
  const tool: McpToolInfo = {
    name,
    description: text.length > MAX_DESCRIPTION ? text.slice(0, MAX_DESCRIPTION) : text,
    inputSchema,
    annotations: isRecord(annotations) ? annotations : {},
  };
  if (isRecord(outputSchema)) tool.outputSchema = outputSchema;
  return { tool };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
