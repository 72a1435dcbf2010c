/**
 * The daemon's `/mcp` endpoint (Streamable HTTP) on a real daemon: the SDK's
 * own client and the MCP Inspector CLI as outside clients, the bearer token
 * and Origin guard, and `notifications/tools/list_changed` when the daemon's
 * runtime gains or loses tools.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cacheEverything } from "../../mcp-bridge/testdata/everything.ts";
import { startDaemon } from "../../server/daemon.ts";
import { Harness } from "../support/harness.ts";
import {
  Client,
  EXAMPLES_DIR,
  firstText,
  inspect,
  StreamableHTTPClientTransport,
  ToolListChangedNotificationSchema,
  within,
} from "../support/mcp.ts";

/** Opens a runtime with `examples/esm/hello` installed trusted and a daemon on a free port. */
async function daemonWithHello(h: Harness) {
  const installed = await h.runtime.install(join(EXAMPLES_DIR, "esm", "hello"), { trust: "trusted" });
  assert.equal(installed.loadError, undefined);
  const daemon = await startDaemon(h.runtime, { port: 0 });
  return { daemon, mcpUrl: `${daemon.url}/mcp` };
}

/** POSTs an MCP initialize to `url` with `headers`; returns the status. */
async function postInitialize(url: string, headers: Record<string, string>): Promise<number> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });
  await response.body?.cancel();
  return response.status;
}

/** An SDK client on `url` with the token; `streamOpen` resolves once its list_changed stream is open. */
async function connectClient(url: string, token: string, name: string) {
  const streamOpen = Promise.withResolvers<void>();
  let changes = 0;
  let wake = Promise.withResolvers<void>();
  const client = new Client({ name, version: "1.0.0" });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes++;
    wake.resolve();
    wake = Promise.withResolvers<void>();
  });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    // The server announces list changes on the session's standalone GET stream: note when it is open.
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      if (init?.method === "GET" && response.ok) streamOpen.resolve();
      return response;
    },
  });
  await client.connect(transport);
  return {
    client,
    streamOpen: streamOpen.promise,
    /** How many list_changed notifications arrived so far. */
    changes: () => changes,
    /** Resolves once more than `seen` notifications arrived. */
    async changedSince(seen: number): Promise<void> {
      while (changes <= seen) await wake.promise;
    },
    async close(): Promise<void> {
      await transport.terminateSession();
      await client.close();
    },
  };
}

Deno.test("daemon /mcp: the token is required, foreign origins are refused, the SDK client calls as an agent", async () => {
  await using h = await Harness.open();
  const { daemon, mcpUrl } = await daemonWithHello(h);
  try {
    assert.equal(await postInitialize(mcpUrl, {}), 401, "no token");
    assert.equal(await postInitialize(mcpUrl, { authorization: "Bearer not-the-token" }), 401, "wrong token");
    const auth = { authorization: `Bearer ${daemon.token}` };
    assert.equal(
      await postInitialize(mcpUrl, { ...auth, origin: "https://evil.example" }),
      403,
      "foreign origin",
    );
    assert.equal(
      await postInitialize(mcpUrl, { ...auth, origin: daemon.url }),
      200,
      "the daemon's own origin",
    );

    const session = await connectClient(mcpUrl, daemon.token, "claude-desktop");
    try {
      const { tools } = await session.client.listTools();
      const greet = tools.find((t) => t.name === "hello.greet");
      assert.ok(greet, "hello.greet is served");
      assert.deepEqual(greet.inputSchema.required, ["name"]);
      const result = await session.client.callTool({ name: "hello.greet", arguments: { name: "Grace" } });
      assert.equal(firstText(result), "Hello, Grace!");
    } finally {
      await session.close();
    }
    const [audit] = h.runtime.store.audit.recent({ plugin: "hello" });
    assert.deepEqual([audit.tool, audit.caller, audit.success], [
      "hello.greet",
      "agent:claude-desktop",
      true,
    ]);
  } finally {
    await daemon.close();
  }
});

Deno.test("daemon /mcp: tools/list_changed reaches the client when a plugin is installed and disabled", async () => {
  await using h = await Harness.open();
  const { daemon, mcpUrl } = await daemonWithHello(h);
  try {
    const session = await connectClient(mcpUrl, daemon.token, "watcher");
    try {
      await within(session.streamOpen, "the client's event stream to open");
      const names = async () => (await session.client.listTools()).tools.map((t) => t.name).sort();
      assert.deepEqual(await names(), ["hello.count", "hello.greet"]);

      let seen = session.changes();
      const recorder = await h.runtime.install(join(EXAMPLES_DIR, "esm", "event-recorder"), {
        trust: "trusted",
      });
      assert.equal(recorder.loadError, undefined);
      await within(session.changedSince(seen), "list_changed after an install");
      const withRecorder = await names();
      assert.ok(withRecorder.some((n) => n.startsWith("event-recorder.")), withRecorder.join(", "));

      seen = session.changes();
      await h.runtime.disable("hello");
      await within(session.changedSince(seen), "list_changed after a disable");
      const afterDisable = await names();
      assert.ok(!afterDisable.some((n) => n.startsWith("hello.")), afterDisable.join(", "));
      const gone = await session.client.callTool({ name: "hello.greet", arguments: { name: "x" } });
      assert.equal(gone.isError, true);
      assert.match(firstText(gone), /^plugin_disabled: /);
    } finally {
      await session.close();
    }
  } finally {
    await daemon.close();
  }
});

Deno.test("daemon /mcp: an MCP plugin's tools are served on to agents with their schema and annotations", async () => {
  await cacheEverything();
  await using h = await Harness.open({ defaultTimeoutMs: 15_000 });
  const installed = await h.runtime.install(join(EXAMPLES_DIR, "mcp", "everything"));
  assert.equal(installed.loadError, undefined);
  const daemon = await startDaemon(h.runtime, { port: 0 });
  try {
    const session = await connectClient(`${daemon.url}/mcp`, daemon.token, "relay-agent");
    try {
      const { tools } = await session.client.listTools();
      const echo = tools.find((t) => t.name === "everything.echo");
      const own = h.runtime.tools("everything").find((t) => t.name === "echo")!;
      assert.ok(echo, "the MCP plugin's tool is served");
      assert.deepEqual(echo.inputSchema, own.inputSchema);
      assert.deepEqual(echo.annotations, own.annotations);
      assert.equal(echo.annotations?.readOnlyHint, true);
      const result = await session.client.callTool({
        name: "everything.echo",
        arguments: { message: "relayed" },
      });
      assert.equal(firstText(result), "Echo: relayed");
    } finally {
      await session.close();
    }
    const [audit] = h.runtime.store.audit.recent({ plugin: "everything" });
    assert.deepEqual([audit.tool, audit.caller], ["everything.echo", "agent:relay-agent"]);
  } finally {
    await daemon.close();
  }
});

Deno.test("daemon /mcp: the MCP Inspector CLI lists and calls the daemon's tools with the token", async () => {
  await using h = await Harness.open();
  const { daemon, mcpUrl } = await daemonWithHello(h);
  try {
    const auth = ["--transport", "http", "--header", `Authorization: Bearer ${daemon.token}`];
    const listed = await inspect([mcpUrl, ...auth, "--method", "tools/list"]);
    assert.equal(listed.code, 0, listed.stderr);
    const { tools } = JSON.parse(listed.stdout) as { tools: { name: string; inputSchema: unknown }[] };
    assert.deepEqual(tools.map((t) => t.name).sort(), ["hello.count", "hello.greet"]);

    const called = await inspect([
      mcpUrl,
      ...auth,
      "--method",
      "tools/call",
      "--tool-name",
      "hello.greet",
      "--tool-arg",
      "name=Inspector",
    ]);
    assert.equal(called.code, 0, called.stderr);
    assert.equal(firstText(JSON.parse(called.stdout)), "Hello, Inspector!");
    const [audit] = h.runtime.store.audit.recent({ plugin: "hello" });
    assert.equal(audit.tool, "hello.greet");
    assert.equal(audit.caller, "agent:inspector-cli", "the inspector's client name is its caller label");

    const refused = await inspect([mcpUrl, "--transport", "http", "--method", "tools/list"]);
    assert.notEqual(refused.code, 0, "no token, no tools");
    assert.equal(h.runtime.store.audit.recent({ plugin: "hello" }).length, 1);
  } finally {
    await daemon.close();
  }
});
