/**
 * Maps what the MCP SDK throws onto the bridge's stable error codes.
 *
 * @module
 */
import { ErrorCode, McpError, StreamableHTTPError, UnauthorizedError } from "../_sdk.ts";
import { CortexError } from "../../runtime/errors.ts";

const MAX_SERVER_MESSAGE = 300;

/**
 * Turns an SDK failure into a `CortexError`. A request whose `signal` was
 * aborted is `mcp_cancelled`; one that ran out of time is `mcp_timeout`.
 *
 * @example
 * ```ts
 * import { McpError, ErrorCode } from "@modelcontextprotocol/sdk/types.js";
 * import { mapMcpError } from "./map_error.ts";
 * mapMcpError(new McpError(ErrorCode.RequestTimeout, "Request timed out")).code; // "mcp_timeout"
 * ```
 */
export function mapMcpError(error: unknown, options: { signal?: AbortSignal } = {}): CortexError {
  if (error instanceof CortexError) return error;
  if (options.signal?.aborted) {
    return new CortexError("mcp_cancelled", "the request was abandoned; a cancel was sent", { cause: error });
  }
  if (error instanceof McpError) {
    if (error.code === ErrorCode.RequestTimeout) {
      return new CortexError("mcp_timeout", "the MCP server did not answer in time; a cancel was sent", {
        cause: error,
      });
    }
    if (error.code === ErrorCode.ConnectionClosed) {
      return new CortexError("mcp_connection_closed", "the MCP server went away", { cause: error });
    }
    return new CortexError("mcp_error", serverMessage(error), { cause: error });
  }
  if (error instanceof UnauthorizedError) {
    return new CortexError("mcp_unauthorized", "the MCP server refused the credentials", { cause: error });
  }
  if (error instanceof StreamableHTTPError) {
    if (error.code === 401 || error.code === 403) {
      return new CortexError("mcp_unauthorized", `the MCP server answered HTTP ${error.code}`, {
        cause: error,
      });
    }
    return new CortexError("mcp_connection_closed", `the MCP server answered HTTP ${error.code}`, {
      cause: error,
    });
  }
  if (isSchemaError(error)) {
    return new CortexError("mcp_bad_response", "the MCP server's answer is not a valid MCP result", {
      cause: error,
    });
  }
  if (error instanceof TypeError || (error instanceof Error && error.name === "BrokenPipe")) {
    return new CortexError("mcp_connection_closed", "the MCP server could not be reached", { cause: error });
  }
  return new CortexError("mcp_error", "the MCP request failed", { cause: error });
}

/** The server's own error text, shortened: it is untrusted and may be long. */
export function serverMessage(error: McpError): string {
  const text = error.message.replace(/^MCP error -?\d+: /, "");
  const short = text.length > MAX_SERVER_MESSAGE ? `${text.slice(0, MAX_SERVER_MESSAGE)}…` : text;
  return `MCP server error ${error.code}: ${short}`;
}

function isSchemaError(error: unknown): boolean {
  return error instanceof Error && (error.name === "ZodError" || error.name === "$ZodError");
}
