/**
 * The stable error codes the MCP bridge throws, in the same form as the
 * core's `ERROR_CODES` in `runtime/errors.ts`.
 *
 * @module
 */

/** Codes thrown as `CortexError` by the MCP client and server, with what each means. */
export const MCP_ERROR_CODES: Readonly<Record<string, string>> = {
  mcp_manifest_invalid: "the manifest's entryPoint or mcp field does not describe an MCP server",
  mcp_spawn_failed: "the stdio server's command could not be started",
  mcp_init_timeout: "the server did not answer initialize before its deadline",
  mcp_init_failed: "the server refused or broke the initialize handshake",
  mcp_unauthorized: "the HTTP server answered 401 or 403",
  mcp_timeout: "the server did not answer a request before its deadline (a cancel was sent)",
  mcp_cancelled: "the caller abandoned the request (a cancel was sent)",
  mcp_connection_closed: "the server went away (process exited or HTTP session ended)",
  mcp_server_down: "the server died and is waiting out its restart backoff",
  mcp_bad_response: "the server answered with something that is not a valid MCP result",
  mcp_bad_method: "the method may not be sent through the raw request tool",
  mcp_error: "the server answered the request with a JSON-RPC error",
};
