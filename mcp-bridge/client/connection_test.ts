import { deepEqual, equal, match, ok } from "node:assert/strict";
import { errorCode } from "../testdata/error_code.ts";
import { denoDir } from "./deno_dir.ts";
import { McpConnection } from "./connection.ts";
import type { McpStdioSpec } from "./spec.ts";
import { cacheEverything, EVERYTHING_INIT_MS, everythingStdioSpec } from "../testdata/everything.ts";

interface Harness {
  connection: McpConnection;
  logs: string[];
  toolsChanged: Promise<void>;
}

async function connect(spec: McpStdioSpec, requestTimeoutMs = 10_000): Promise<Harness> {
  await cacheEverything();
  const logs: string[] = [];
  const changed = Promise.withResolvers<void>();
  const connection = await McpConnection.connect(spec, {
    requestTimeoutMs,
    initTimeoutMs: EVERYTHING_INIT_MS,
    onLog: (line) => logs.push(line),
    onToolsChanged: () => changed.resolve(),
    clientName: "cortex-test",
  });
  return { connection, logs, toolsChanged: changed.promise };
}

async function withPluginDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "cortex-mcp-" });
  try {
    return await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("stdio: server-everything handshakes, lists tools with schemas and annotations, and answers calls", async () => {
  await withPluginDir(async (dir) => {
    const { connection, logs } = await connect(everythingStdioSpec(dir));
    try {
      equal(connection.serverInfo.name, "mcp-servers/everything");
      equal(connection.wire, "stdio");
      const tools = await connection.listTools();
      const sum = tools.find((tool) => tool.name === "get-sum");
      ok(sum, "get-sum is listed");
      equal(sum.inputSchema.type, "object");
      deepEqual(sum.inputSchema.required, ["a", "b"]);
      equal((sum.inputSchema.properties as Record<string, { type: string }>).a.type, "number");
      equal(sum.annotations.readOnlyHint, true);
      match(sum.description, /sum/);

      const echo = await connection.callTool("echo", { message: "hello cortex" });
      deepEqual(echo, { success: true, output: "Echo: hello cortex", raw: echo.raw });
      const added = await connection.callTool("get-sum", { a: 2, b: 40 });
      ok(added.success);
      match(added.output, /42/);
      // The server's stderr banner reaches the log.
      ok(logs.some((line) => line.includes("STDIO")), `logs: ${logs.join(" | ")}`);
    } finally {
      await connection.close();
    }
    ok(connection.closed);
  });
});

Deno.test("stdio: a bad call is a failed result, not a thrown error", async () => {
  await withPluginDir(async (dir) => {
    const { connection } = await connect(everythingStdioSpec(dir));
    try {
      const unknown = await connection.callTool("no-such-tool", {});
      equal(unknown.success, false);
      match(unknown.error ?? "", /no-such-tool/);
      const badArgs = await connection.callTool("get-sum", { a: "two" });
      equal(badArgs.success, false);
    } finally {
      await connection.close();
    }
  });
});

Deno.test("stdio: tools/list_changed after initialize reaches onToolsChanged", async () => {
  await withPluginDir(async (dir) => {
    const { connection, toolsChanged } = await connect(everythingStdioSpec(dir));
    try {
      // server-everything registers its capability-dependent tools once initialized.
      await toolsChanged;
      const names = (await connection.listTools()).map((tool) => tool.name);
      ok(names.includes("simulate-research-query"), names.join(","));
    } finally {
      await connection.close();
    }
  });
});

Deno.test("stdio: a request past its deadline fails with mcp_timeout and the session survives", async () => {
  await withPluginDir(async (dir) => {
    const { connection } = await connect(everythingStdioSpec(dir));
    try {
      const late = connection.callTool("trigger-long-running-operation", { duration: 30, steps: 2 }, {
        timeoutMs: 150,
      });
      equal(await errorCode(late), "mcp_timeout");
      const aborted = new AbortController();
      const call = connection.callTool("trigger-long-running-operation", { duration: 30, steps: 2 }, {
        signal: aborted.signal,
      });
      aborted.abort();
      equal(await errorCode(call), "mcp_cancelled");
      equal((await connection.callTool("echo", { message: "still here" })).output, "Echo: still here");
    } finally {
      await connection.close();
    }
  });
});

Deno.test("stdio: the raw request tool passes any method through", async () => {
  await withPluginDir(async (dir) => {
    const { connection } = await connect(everythingStdioSpec(dir));
    try {
      const prompts = await connection.request("prompts/list", {}) as { prompts: { name: string }[] };
      ok(prompts.prompts.length > 0);
      equal(await errorCode(connection.request("initialize", {})), "mcp_bad_method");
    } finally {
      await connection.close();
    }
  });
});

Deno.test("stdio: the server sees only the environment the manifest names", async () => {
  await withPluginDir(async (dir) => {
    const host: Record<string, string> = { PATH: "/usr/bin:/bin", WEATHER_KEY: "k-123", HOME: "/home/me" };
    const spec = everythingStdioSpec(dir, {
      mcp: { env: { UNITS: "metric" }, envFrom: ["WEATHER_KEY"] },
      hostEnv: (name) => name === "DENO_DIR" ? denoDir((n) => Deno.env.get(n)) : host[name],
    });
    const { connection } = await connect(spec);
    try {
      const env = JSON.parse((await connection.callTool("get-env", {})).output) as Record<string, string>;
      // Deno's Node layer adds npm_config_user_agent itself; nothing else may come from the host.
      const names = Object.keys(env).filter((name) => name !== "npm_config_user_agent").sort();
      deepEqual(names, ["DENO_DIR", "PATH", "UNITS", "WEATHER_KEY"]);
      equal(env.UNITS, "metric");
      equal(env.WEATHER_KEY, "k-123");
    } finally {
      await connection.close();
    }
  });
});

Deno.test("stdio: an npm server may fetch only with a network capability", async () => {
  await using http = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response("payload"),
  );
  const url = `http://127.0.0.1:${http.addr.port}/file.txt`;
  const gzip = { name: "f.gz", data: url, outputType: "resource" };
  await withPluginDir(async (dir) => {
    const denied = await connect(everythingStdioSpec(dir, { capabilities: ["tools"] }));
    try {
      const result = await denied.connection.callTool("gzip-file-as-resource", gzip);
      equal(result.success, false);
      match(result.error ?? "", /net/i);
    } finally {
      await denied.connection.close();
    }
    const granted = await connect(everythingStdioSpec(dir, { capabilities: ["tools", "network:fetch"] }));
    try {
      const result = await granted.connection.callTool("gzip-file-as-resource", gzip);
      equal(result.success, true, result.error);
      match(result.output, /\[resource /);
    } finally {
      await granted.connection.close();
    }
  });
});
