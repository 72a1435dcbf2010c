/**
 * The loader for `kind: "mcp"` plugins, over the MCP bridge.
 *
 * @example
 * ```ts
 * import { McpLoader } from "./mod.ts";
 * console.log(new McpLoader().name);
 * ```
 *
 * @module
 */
export { McpLoader } from "./mcp_loader.ts";
export { checkMcpServerAllowed, isLoopbackUrl } from "./mcp_policy.ts";
