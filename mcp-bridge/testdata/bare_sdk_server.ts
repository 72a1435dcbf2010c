/**
 * Bench floor: the same `demo.echo` tool served by the SDK alone (its
 * low-level `Server` and its own `StdioServerTransport`), with no bridge code.
 *
 * @module
 */
import { CallToolRequestSchema, ListToolsRequestSchema, Server, StdioServerTransport } from "../_sdk.ts";
import { ECHO_SCHEMA } from "./demo_source.ts";

const server = new Server({ name: "bare-sdk", version: "0.0.1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [{ name: "demo.echo", description: "Echoes", inputSchema: ECHO_SCHEMA as { type: "object" } }],
}));
server.setRequestHandler(CallToolRequestSchema, (request) => ({
  content: [{
    type: "text",
    text: `agent:${server.getClientVersion()?.name} says ${String(request.params.arguments?.message)}`,
  }],
}));
await server.connect(new StdioServerTransport());
