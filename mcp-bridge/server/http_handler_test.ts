import { deepEqual, equal, ok } from "node:assert/strict";
import { Client, StreamableHTTPClientTransport, ToolListChangedNotificationSchema } from "../_sdk.ts";
import { McpConnection } from "../client/connection.ts";
import { type DemoSource, demoSource } from "../testdata/demo_source.ts";
import { errorCode } from "../testdata/error_code.ts";
import { type McpHttpHandler, mcpHttpHandler } from "./http_handler.ts";

const TOKEN = "test-token-5b1e";

interface Served {
  url: string;
  source: DemoSource;
  mcp: McpHttpHandler;
  /** Resolves once a client's standalone GET stream (where list_changed travels) is open. */
  streamOpen: Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

function serve(options: { maxSessions?: number } = {}): Served {
  const source = demoSource();
  const mcp = mcpHttpHandler(source, { name: "cortex", version: "0.1.0", token: TOKEN, ...options });
  const streamOpen = Promise.withResolvers<void>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const response = await mcp(request);
    if (request.method === "GET" && response.status === 200) streamOpen.resolve();
    return response;
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/mcp`,
    source,
    mcp,
    streamOpen: streamOpen.promise,
    [Symbol.asyncDispose]: async () => {
      await mcp.close();
      await server.shutdown();
    },
  };
}

function initializeBody(): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });
}

async function post(url: string, headers: Record<string, string>): Promise<Response> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: initializeBody(),
  });
  await response.body?.cancel();
  return response;
}

Deno.test("http server: a missing or wrong bearer token is 401, a foreign Origin is 403", async () => {
  await using served = serve();
  equal((await post(served.url, {})).status, 401);
  equal((await post(served.url, { authorization: "Bearer wrong" })).status, 401);
  const auth = { authorization: `Bearer ${TOKEN}` };
  equal((await post(served.url, { ...auth, origin: "https://evil.example" })).status, 403);
  equal((await post(served.url, { ...auth, origin: "null" })).status, 403);
  equal((await post(served.url, { ...auth, origin: "http://localhost:5173" })).status, 200);
  equal((await post(served.url, auth)).status, 200);
  const stale = await fetch(served.url, { method: "GET", headers: { ...auth, "mcp-session-id": "nope" } });
  await stale.body?.cancel();
  equal(stale.status, 404);
});

Deno.test("http server: the SDK client lists, calls with its caller label, and hears list_changed", async () => {
  await using served = serve();
  const changed = Promise.withResolvers<void>();
  const client = new Client({ name: "claude-test", version: "1.0.0" });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed.resolve());
  const transport = new StreamableHTTPClientTransport(new URL(served.url), {
    requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
  });
  await client.connect(transport);
  try {
    equal(served.mcp.sessionCount(), 1);
    const { tools } = await client.listTools();
    ok(tools.some((tool) => tool.name === "demo.echo"));
    const result = await client.callTool({ name: "demo.echo", arguments: { message: "hello" } });
    deepEqual(result.content, [{ type: "text", text: "agent:claude-test says hello" }]);

    await served.streamOpen;
    served.source.addTool({ name: "demo.new", description: "new", inputSchema: { type: "object" } });
    await changed.promise;
    ok((await client.listTools()).tools.some((tool) => tool.name === "demo.new"));
  } finally {
    await transport.terminateSession();
    await client.close();
  }
  equal(served.mcp.sessionCount(), 0);
});

Deno.test("http server: McpConnection's deadline sends a cancel that reaches the running tool", async () => {
  await using served = serve();
  const connection = await McpConnection.connect(
    { transport: "http", url: served.url, headers: { authorization: `Bearer ${TOKEN}` } },
    {
      requestTimeoutMs: 5000,
      initTimeoutMs: 5000,
      onLog: () => {},
      onToolsChanged: () => {},
      clientName: "cortex-test",
    },
  );
  try {
    equal(await errorCode(connection.callTool("demo.slow", {}, { timeoutMs: 100 })), "mcp_timeout");
    equal(await served.source.cancelled, "agent:cortex-test");
  } finally {
    await connection.close();
  }
});

Deno.test("http server: a wrong token is mcp_unauthorized for McpConnection; sessions are capped", async () => {
  await using served = serve({ maxSessions: 1 });
  const options = { requestTimeoutMs: 5000, initTimeoutMs: 5000, onLog: () => {}, onToolsChanged: () => {} };
  equal(
    await errorCode(
      McpConnection.connect(
        { transport: "http", url: served.url, headers: { authorization: "Bearer x" } },
        options,
      ),
    ),
    "mcp_unauthorized",
  );
  const first = await McpConnection.connect(
    { transport: "http", url: served.url, headers: { authorization: `Bearer ${TOKEN}` } },
    options,
  );
  try {
    equal((await post(served.url, { authorization: `Bearer ${TOKEN}` })).status, 503);
  } finally {
    await first.close();
  }
});
