/**
 * What the runtime's MCP server needs from the core: its tools, one way to
 * call them, a change signal, and a capability document. The core implements
 * this over its registry and its one call path; the bridge never reaches past it.
 *
 * @module
 */

/** A tool as the MCP server lists it. */
export interface SourceTool {
  /** The registered (namespaced) tool name. */
  name: string;
  /** What it does. */
  description: string;
  /** Its input JSON Schema, served as given. */
  inputSchema: Record<string, unknown>;
  /** MCP hints such as `readOnlyHint`. */
  annotations?: Record<string, unknown>;
}

/** Who is calling, as the runtime labels it. */
export interface ToolCaller {
  /** `agent:<client name from initialize>`. */
  label: string;
  /** Aborted when the MCP client cancels the request or goes away. */
  signal?: AbortSignal;
}

/** A tool call's outcome. */
export interface SourceCallResult {
  /** False when the tool failed. */
  success: boolean;
  /** The tool's text output. */
  output: string;
  /** The failure, when `success` is false. */
  error?: string;
}

/** The core, as the MCP server sees it. */
export interface ToolSource {
  /** The tools an agent may see right now. */
  listTools(): SourceTool[];
  /** Calls a tool through the runtime's one call path; may throw a `CortexError`. */
  callTool(name: string, args: Record<string, unknown>, caller: ToolCaller): Promise<SourceCallResult>;
  /** Subscribes to changes of the tool list; returns the unsubscribe function. */
  onToolsChanged(listener: () => void): () => void;
  /** A JSON capability document listing plugins and tools, served as a resource. */
  describe(): unknown;
}
