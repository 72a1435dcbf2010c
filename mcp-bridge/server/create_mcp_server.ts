/**
 * The runtime as an MCP server: the SDK's low-level `Server` with raw JSON
 * Schema tools taken from a {@link ToolSource}.
 *
 * @module
 */
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  Server,
  type Tool,
} from "../_sdk.ts";
import { CortexError } from "../../runtime/errors.ts";
import type { ToolSource } from "./tool_source.ts";

/** The URI of the capability document resource. */
export const CAPABILITIES_URI = "cortex://capabilities";

/** The server's identity. */
export interface McpServerOptions {
  /** `serverInfo.name`. */
  name: string;
  /** `serverInfo.version`. */
  version: string;
  /** Optional `instructions` for the agent. */
  instructions?: string;
}

const LABEL_CHARS = /[^A-Za-z0-9 ._\/@:+-]/g;

/**
 * Makes an SDK `Server` serving the source's tools and its capability
 * document. Each call reaches the source with the caller label
 * `agent:<client name from initialize>`, and the client's cancel as an abort
 * signal. A change of the tool list is sent as `notifications/tools/list_changed`.
 *
 * The returned server owns its `onclose` (it unsubscribes from the source);
 * wrap it rather than replace it.
 *
 * @example
 * ```ts
 * import { createMcpServer } from "./create_mcp_server.ts";
 * import type { ToolSource } from "./tool_source.ts";
 * declare const source: ToolSource;
 * const server = createMcpServer(source, { name: "cortex", version: "0.1.0" });
 * // await server.connect(transport);
 * ```
 */
export function createMcpServer(source: ToolSource, options: McpServerOptions): Server {
  const server = new Server(
    { name: options.name, version: options.version },
    {
      capabilities: { tools: { listChanged: true }, resources: {} },
      ...(options.instructions ? { instructions: options.instructions } : {}),
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: source.listTools().map((tool): Tool => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema as Tool["inputSchema"],
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const caller = { label: callerLabel(server.getClientVersion()?.name), signal: extra.signal };
    try {
      const result = await source.callTool(request.params.name, request.params.arguments ?? {}, caller);
      if (result.success) return { content: [{ type: "text", text: result.output }] };
      return { content: [{ type: "text", text: result.error ?? result.output }], isError: true };
    } catch (error) {
      if (error instanceof CortexError && error.code === "tool_not_found") {
        // The MCP specification makes an unknown tool a protocol error, not a tool result.
        throw new McpError(ErrorCode.InvalidParams, error.message);
      }
      const text = error instanceof CortexError
        ? `${error.code}: ${error.message}`
        : "internal: the tool call failed";
      return { content: [{ type: "text", text }], isError: true };
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: [{
      uri: CAPABILITIES_URI,
      name: "capabilities",
      description: "The plugins and tools this runtime serves",
      mimeType: "application/json",
    }],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    if (request.params.uri !== CAPABILITIES_URI) {
      throw new McpError(ErrorCode.InvalidParams, `unknown resource ${request.params.uri}`);
    }
    const text = JSON.stringify(source.describe(), null, 2);
    return { contents: [{ uri: CAPABILITIES_URI, mimeType: "application/json", text }] };
  });

  const unsubscribe = source.onToolsChanged(() => {
    // Before connect, or after the peer left, there is no one to tell.
    server.sendToolListChanged().catch(() => {});
  });
  server.onclose = unsubscribe;
  return server;
}

/** `agent:<name>`, with the client-chosen name cut to 64 safe characters. */
export function callerLabel(clientName: unknown): string {
  const clean = typeof clientName === "string" ? clientName.replace(LABEL_CHARS, "").slice(0, 64).trim() : "";
  return `agent:${clean || "unknown"}`;
}
