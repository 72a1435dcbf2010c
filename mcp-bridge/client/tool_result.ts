/**
 * Turns an MCP `tools/call` result into the runtime's `{ success, output }`.
 *
 * @module
 */

/** The runtime's view of one MCP tool call. */
export interface McpCallResult {
  /** False when the server flagged the result `isError` or answered with a JSON-RPC error. */
  success: boolean;
  /** The result as text: text blocks joined by newlines, other blocks summarised. */
  output: string;
  /** The error text when `success` is false. */
  error?: string;
  /** The server's result, already checked against the MCP result schema. */
  raw: unknown;
}

/** The default cap on `output`, in characters. */
export const DEFAULT_MAX_OUTPUT = 1024 * 1024;

/**
 * Renders a checked `CallToolResult` as text, capped at `maxOutput` characters.
 *
 * @example
 * ```ts
 * import { toCallResult } from "./tool_result.ts";
 * const result = toCallResult({ content: [{ type: "text", text: "hi" }] });
 * // { success: true, output: "hi", raw: {...} }
 * ```
 */
export function toCallResult(
  raw: Record<string, unknown>,
  options: { maxOutput?: number } = {},
): McpCallResult {
  const parts = Array.isArray(raw.content) ? raw.content.map(renderBlock) : [];
  if (parts.length === 0 && raw.structuredContent !== undefined) {
    parts.push(JSON.stringify(raw.structuredContent));
  }
  // Servers from before protocol 2024-11-05 answer `{ toolResult }`.
  if (parts.length === 0 && raw.toolResult !== undefined) parts.push(JSON.stringify(raw.toolResult));
  const output = cap(parts.join("\n"), options.maxOutput ?? DEFAULT_MAX_OUTPUT);
  if (raw.isError === true) {
    return { success: false, output, error: output || "the tool reported an error", raw };
  }
  return { success: true, output, raw };
}

function renderBlock(block: unknown): string {
  if (typeof block !== "object" || block === null) return "";
  const b = block as Record<string, unknown>;
  switch (b.type) {
    case "text":
      return typeof b.text === "string" ? b.text : "";
    case "image":
    case "audio":
      return `[${b.type} ${String(b.mimeType)}, ${base64Bytes(b.data)} bytes]`;
    case "resource": {
      const resource = (b.resource ?? {}) as Record<string, unknown>;
      if (typeof resource.text === "string") return resource.text;
      return `[resource ${String(resource.uri)}, ${base64Bytes(resource.blob)} bytes]`;
    }
    case "resource_link":
      return `[resource link ${String(b.uri)}]`;
    default:
      return `[${String(b.type)} content]`;
  }
}

function base64Bytes(data: unknown): number {
  if (typeof data !== "string") return 0;
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function cap(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}\n[output truncated at ${max} characters]` : text;
}
