/**
 * The MCP bridge: the client the `mcp` loader and Vyre connections use to
 * reach MCP servers, and the runtime's own MCP server for agents. Built on
 * the official `@modelcontextprotocol/sdk`. See `README.md` for the manifest
 * rules, the permissions a JavaScript server gets, and the error codes.
 *
 * @example
 * ```ts
 * import { McpConnection, mcpHttpHandler } from "./mod.ts";
 *
 * const mcp = await McpConnection.connect(
 *   { transport: "http", url: "http://127.0.0.1:3001/mcp" },
 *   { requestTimeoutMs: 30_000, initTimeoutMs: 10_000, onLog: console.error, onToolsChanged: () => {} },
 * );
 * console.log(await mcp.listTools());
 * await mcp.close();
 * ```
 *
 * @module
 */
export * from "./client/mod.ts";
export * from "./server/mod.ts";
export { MCP_ERROR_CODES } from "./error_codes.ts";
