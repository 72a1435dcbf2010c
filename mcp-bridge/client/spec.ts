/**
 * How to reach one MCP server, after the manifest has been read.
 *
 * @module
 */

/** An MCP server reached over Streamable HTTP (falling back to the older HTTP+SSE transport). */
export interface McpHttpSpec {
  /** Always `"http"`. */
  transport: "http";
  /** The server's endpoint, `http://` or `https://`. */
  url: string;
  /** Extra request headers, such as `Authorization`. */
  headers?: Record<string, string>;
}

/** An MCP server started as a child process, spoken to over its stdin and stdout. */
export interface McpStdioSpec {
  /** Always `"stdio"`. */
  transport: "stdio";
  /** The program to run (an absolute path or a name looked up on `PATH`). */
  command: string;
  /** Its arguments. */
  args: string[];
  /** Its working folder (the plugin's folder). */
  cwd?: string;
  /** Its whole environment: only what the manifest names, plus `PATH` (and `DENO_DIR` under Deno). */
  env: Record<string, string>;
  /**
   * True when the command is `deno run` with permissions derived from the
   * plugin's capabilities; false for a native command, which runs with the
   * person's own rights (minus the environment), so the loader should allow it
   * only for trusted plugins.
   */
  sandboxed?: boolean;
}

/** Where an MCP server is and how to reach it. */
export type McpServerSpec = McpHttpSpec | McpStdioSpec;
