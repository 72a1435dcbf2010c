import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { fileURLToPath as fromFileUrl } from "node:url";
import { Client, ErrorCode, McpError, ToolListChangedNotificationSchema } from "../_sdk.ts";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ECHO_SCHEMA } from "../testdata/demo_source.ts";
import { CAPABILITIES_URI } from "./create_mcp_server.ts";

const CONFIG = fromFileUrl(new URL("../../deno.json", import.meta.url));
const SCRIPT = fromFileUrl(new URL("../testdata/serve_demo.ts", import.meta.url));

async function connectSdkClient(): Promise<{ client: Client; changed: Promise<void> }> {
  const changed = Promise.withResolvers<void>();
  const client = new Client({ name: "sdk-test-client", version: "1.0.0" });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed.resolve());
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "--no-prompt", "--config", CONFIG, SCRIPT],
    stderr: "inherit",
  });
  await client.connect(transport, { timeout: 30_000 });
  return { client, changed: changed.promise };
}

Deno.test("stdio server: the SDK's own client lists raw schemas, calls tools, reads the capability document", async () => {
  const { client } = await connectSdkClient();
  try {
    deepEqual(client.getServerVersion(), { name: "cortex-demo", version: "0.0.1" });
    const { tools } = await client.listTools();
    const echo = tools.find((tool) => tool.name === "demo.echo");
    deepEqual(echo?.inputSchema, ECHO_SCHEMA);
    deepEqual(echo?.annotations, { readOnlyHint: true });

    const result = await client.callTool({ name: "demo.echo", arguments: { message: "hi" } });
    deepEqual(result.content, [{ type: "text", text: "agent:sdk-test-client says hi" }]);

    const failed = await client.callTool({ name: "demo.fail", arguments: {} });
    equal(failed.isError, true);
    deepEqual(failed.content, [{ type: "text", text: "permission_denied: the plugin may not do that" }]);

    await rejects(
      () => client.callTool({ name: "demo.nope", arguments: {} }),
      (error: unknown) => error instanceof McpError && error.code === ErrorCode.InvalidParams,
    );

    const doc = await client.readResource({ uri: CAPABILITIES_URI });
    const text = doc.contents[0] && "text" in doc.contents[0] ? String(doc.contents[0].text) : "";
    equal(JSON.parse(text).plugins[0].name, "demo");
  } finally {
    await client.close();
  }
});

Deno.test("stdio server: a client's cancel reaches the tool, and a grown tool list is announced", async () => {
  const { client, changed } = await connectSdkClient();
  try {
    await rejects(() => client.callTool({ name: "demo.slow", arguments: {} }, undefined, { timeout: 100 }));
    // stdio keeps order: the cancel was read before this call.
    const count = await client.callTool({ name: "demo.cancellations", arguments: {} });
    deepEqual(count.content, [{ type: "text", text: "1" }]);

    await client.callTool({ name: "demo.grow", arguments: {} });
    await changed;
    const { tools } = await client.listTools();
    ok(tools.some((tool) => tool.name.startsWith("demo.grown")));
  } finally {
    await client.close();
  }
});
