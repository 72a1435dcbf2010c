import { equal, notEqual, ok } from "node:assert/strict";
import { McpSupervisor } from "./supervisor.ts";
import type { McpStdioSpec } from "./spec.ts";
import { cacheEverything, EVERYTHING_INIT_MS, everythingStdioSpec } from "../testdata/everything.ts";
import { errorCode } from "../testdata/error_code.ts";

Deno.test("supervisor: a server that dies is restarted on the next call", async () => {
  await cacheEverything();
  const dir = await Deno.makeTempDir({ prefix: "cortex-mcp-" });
  let toolsChanged = 0;
  const down = Promise.withResolvers<void>();
  const supervisor = new McpSupervisor(everythingStdioSpec(dir), {
    requestTimeoutMs: 10_000,
    initTimeoutMs: EVERYTHING_INIT_MS,
    onLog: () => {},
    onToolsChanged: () => toolsChanged++,
    onDown: () => down.resolve(),
  });
  try {
    equal(supervisor.state, "idle");
    equal((await supervisor.callTool("echo", { message: "one" })).output, "Echo: one");
    const first = await supervisor.connection();
    const pid = first.pid;
    ok(pid !== undefined);
    const changedBefore = toolsChanged;

    Deno.kill(pid, "SIGKILL");
    await down.promise;
    equal(supervisor.state, "down");

    equal((await supervisor.callTool("echo", { message: "two" })).output, "Echo: two");
    equal(supervisor.state, "connected");
    equal(supervisor.restarts, 1);
    notEqual((await supervisor.connection()).pid, pid);
    // The runtime re-lists tools after a restart.
    ok(toolsChanged > changedBefore);
  } finally {
    await supervisor.close();
    await Deno.remove(dir, { recursive: true });
  }
  equal(supervisor.state, "closed");
});

Deno.test("supervisor: a server that keeps failing is retried at once, then backed off", async () => {
  const broken: McpStdioSpec = {
    transport: "stdio",
    command: Deno.execPath(),
    args: ["eval", "Deno.exit(1)"],
    env: {},
  };
  const supervisor = new McpSupervisor(broken, {
    requestTimeoutMs: 1000,
    initTimeoutMs: 5000,
    // Long enough that the third call always lands inside the window.
    initialBackoffMs: 60_000,
    onLog: () => {},
    onToolsChanged: () => {},
  });
  try {
    equal(await errorCode(supervisor.callTool("x", {})), "mcp_init_failed");
    equal(await errorCode(supervisor.callTool("x", {})), "mcp_init_failed");
    equal(await errorCode(supervisor.callTool("x", {})), "mcp_server_down");
    equal(supervisor.state, "down");
  } finally {
    await supervisor.close();
  }
});
