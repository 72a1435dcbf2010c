import { equal, ok } from "node:assert/strict";
import { McpConnection } from "./connection.ts";
import type { McpStdioSpec } from "./spec.ts";
import { errorCode } from "../testdata/error_code.ts";

function denoEval(code: string): McpStdioSpec {
  return { transport: "stdio", command: Deno.execPath(), args: ["eval", code], env: {} };
}

function connectOptions(logs: string[] = [], initTimeoutMs = 1500) {
  return {
    requestTimeoutMs: 1000,
    initTimeoutMs,
    onLog: (line: string) => logs.push(line),
    onToolsChanged: () => {},
  };
}

Deno.test("a server that never answers initialize fails with mcp_init_timeout", async () => {
  // Reads (and ignores) every request until its stdin closes, like a hung server.
  const silent = denoEval("for await (const _ of Deno.stdin.readable) {}");
  equal(await errorCode(McpConnection.connect(silent, connectOptions([], 500))), "mcp_init_timeout");
});

Deno.test("a server that exits during initialize fails with mcp_init_failed and its stderr is logged", async () => {
  const logs: string[] = [];
  const crashing = denoEval("console.error('boom: missing API key'); Deno.exit(3)");
  equal(await errorCode(McpConnection.connect(crashing, connectOptions(logs))), "mcp_init_failed");
  ok(logs.includes("boom: missing API key"), logs.join(" | "));
});

Deno.test("a command that does not exist fails with mcp_spawn_failed", async () => {
  const missing: McpStdioSpec = { transport: "stdio", command: "/nonexistent/mcp-server", args: [], env: {} };
  equal(await errorCode(McpConnection.connect(missing, connectOptions())), "mcp_spawn_failed");
});

Deno.test("a server that writes garbage instead of JSON-RPC is still held to the deadline", async () => {
  const logs: string[] = [];
  const noisy = denoEval("console.log('hello, not json'); for await (const _ of Deno.stdin.readable) {}");
  equal(await errorCode(McpConnection.connect(noisy, connectOptions(logs, 500))), "mcp_init_timeout");
  ok(logs.some((line) => line.includes("not a JSON-RPC message")), logs.join(" | "));
});
