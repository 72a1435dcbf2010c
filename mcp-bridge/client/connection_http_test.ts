import { equal, match, ok } from "node:assert/strict";
import { McpConnection } from "./connection.ts";
import { EVERYTHING_INIT_MS, startEverythingHttp } from "../testdata/everything.ts";
import { errorCode } from "../testdata/error_code.ts";

const options = {
  requestTimeoutMs: 10_000,
  initTimeoutMs: EVERYTHING_INIT_MS,
  onLog: () => {},
  onToolsChanged: () => {},
};

Deno.test("http: server-everything over Streamable HTTP lists and calls tools", async () => {
  const server = await startEverythingHttp("streamableHttp");
  try {
    const connection = await McpConnection.connect({ transport: "http", url: server.url }, options);
    try {
      equal(connection.wire, "streamable-http");
      equal(connection.serverInfo.name, "mcp-servers/everything");
      const tools = await connection.listTools();
      const echo = tools.find((tool) => tool.name === "echo");
      ok(echo, "echo is listed");
      equal(echo.annotations.readOnlyHint, true);
      equal((await connection.callTool("echo", { message: "over http" })).output, "Echo: over http");
      match((await connection.callTool("get-sum", { a: 20, b: 22 })).output, /42/);
      const late = connection.callTool("trigger-long-running-operation", { duration: 30, steps: 2 }, {
        timeoutMs: 150,
      });
      equal(await errorCode(late), "mcp_timeout");
    } finally {
      await connection.close();
    }
  } finally {
    await server.close();
  }
});

Deno.test("http: a server that only speaks the older HTTP+SSE transport is reached by falling back", async () => {
  const server = await startEverythingHttp("sse");
  try {
    const connection = await McpConnection.connect({ transport: "http", url: server.url }, options);
    try {
      equal(connection.wire, "sse");
      equal((await connection.callTool("echo", { message: "legacy" })).output, "Echo: legacy");
    } finally {
      await connection.close();
    }
  } finally {
    await server.close();
  }
});

Deno.test("http: nothing listening is mcp_init_failed, not a hang", async () => {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const url = `http://127.0.0.1:${probe.addr.port}/mcp`;
  probe.close();
  equal(
    await errorCode(McpConnection.connect({ transport: "http", url }, { ...options, initTimeoutMs: 5000 })),
    "mcp_init_failed",
  );
});
