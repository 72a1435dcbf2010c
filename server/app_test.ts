import assert from "node:assert/strict";
import { join } from "node:path";
import { FIXTURES_DIR, Harness, manifestFor } from "../test/support/harness.ts";
import { createApp, type DaemonApp } from "./app.ts";

const TOKEN = "ab".repeat(32);
const HOST = "127.0.0.1:4807";

/** Sends one request the way a client on loopback would (Host header included). */
async function send(
  app: DaemonApp,
  path: string,
  init: {
    method?: string;
    body?: string;
    token?: string | null;
    host?: string | null;
    headers?: Record<string, string>;
  } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.host !== null) headers.host = init.host ?? HOST;
  if (init.token !== null) headers.authorization = `Bearer ${init.token ?? TOKEN}`;
  if (init.body !== undefined) headers["content-type"] ??= "application/json";
  const response = await app.request(path, { method: init.method ?? "GET", body: init.body, headers });
  assert.match(response.headers.get("content-type") ?? "", /application\/json/, `${path}: not JSON`);
  return { status: response.status, body: await response.json() };
}

function call(
  app: DaemonApp,
  tool: string,
  body: unknown,
  init: { token?: string | null; host?: string } = {},
) {
  return send(app, `/api/tools/${encodeURIComponent(tool)}/call`, {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
    ...init,
  });
}

function errorOf(body: Record<string, unknown>): { code: string; message: string } {
  assert.deepEqual(Object.keys(body), ["error"]);
  const error = body.error as { code: string; message: string };
  assert.deepEqual(Object.keys(error).sort(), ["code", "message"]);
  return error;
}

async function serving(app: DaemonApp): Promise<void> {
  const { status, body } = await call(app, "hook-recorder.ping", { args: {} });
  assert.equal(status, 200);
  assert.equal(body.output, "pong");
}

async function withApp(fn: (app: DaemonApp, h: Harness) => Promise<void>): Promise<void> {
  await using h = await Harness.open();
  await h.runtime.install(join(FIXTURES_DIR, "hook-recorder"), { trust: "trusted" });
  await fn(createApp(h.runtime, { token: TOKEN }), h);
}

Deno.test("app: health answers without a token", async () => {
  await withApp(async (app) => {
    assert.deepEqual(await send(app, "/api/health", { token: null }), { status: 200, body: { ok: true } });
  });
});

Deno.test("app: a missing or wrong token is 401 JSON, and the app keeps serving", async () => {
  await withApp(async (app) => {
    const attempts: { token?: string | null; headers?: Record<string, string> }[] = [
      { token: null },
      { token: "cd".repeat(32) },
      { token: TOKEN.slice(0, 10) },
      { token: "" },
      { token: null, headers: { authorization: `Basic ${TOKEN}` } },
      { token: null, headers: { authorization: TOKEN } },
    ];
    for (const attempt of attempts) {
      const { status, body } = await send(app, "/api/plugins", attempt);
      assert.equal(status, 401, JSON.stringify(attempt));
      assert.equal(errorOf(body).code, "unauthorized");
      assert.doesNotMatch(errorOf(body).message, new RegExp(TOKEN), "the token leaked into the answer");
      await serving(app);
    }
  });
});

Deno.test("app: a wrong Host header is 403 (DNS rebinding guard); loopback names are fine", async () => {
  await withApp(async (app) => {
    for (const host of ["evil.example", "evil.example:4807", "127.0.0.1.evil.example", "10.0.0.7:4807"]) {
      const { status, body } = await send(app, "/api/plugins", { host });
      assert.equal(status, 403, host);
      assert.equal(errorOf(body).code, "forbidden_host");
      await serving(app);
    }
    for (const host of ["localhost:4807", "127.0.0.1", "[::1]:4807"]) {
      assert.equal((await send(app, "/api/plugins", { host })).status, 200, host);
    }
  });
});

// BUG (minor): DaemonApp.request is documented to answer "as fetch would", but a
// request without a Host header (app.request("/api/health"), whose URL host is
// localhost) is always refused as forbidden_host; the guard could fall back to the URL's host.
Deno.test("app: request() without a Host header uses the URL's host", async () => {
  await withApp(async (app) => {
    const response = await app.request("/api/health");
    assert.equal(response.status, 200, await response.clone().text());
    await response.body?.cancel();
  });
});

Deno.test("app: bad JSON or a body that is not the documented object is 400 JSON", async () => {
  await withApp(async (app) => {
    const bodies = [
      "{not json",
      "",
      "[1, 2]",
      '"args"',
      "null",
      '{"args": [1]}',
      '{"args": "x"}',
      '{"args": {}, "extra": 1}',
      '{"args": {}, "timeoutMs": -5}',
      '{"args": {}, "timeoutMs": 1.5}',
    ];
    for (const text of bodies) {
      const { status, body } = await call(app, "hook-recorder.ping", text);
      assert.equal(status, 400, text);
      assert.equal(errorOf(body).code, "bad_request", text);
      await serving(app);
    }
  });
});

Deno.test("app: a body over 1 MiB is refused with 400 JSON", async () => {
  await withApp(async (app) => {
    const big = JSON.stringify({ args: { pad: "x".repeat(1024 * 1024 + 10) } });
    const { status, body } = await call(app, "hook-recorder.ping", big);
    assert.equal(status, 400);
    assert.equal(errorOf(body).code, "bad_request");
    await serving(app);
  });
});

Deno.test("app: an unknown tool or plugin is 404, an unknown route is 404 JSON", async () => {
  await withApp(async (app) => {
    const tool = await call(app, "nobody.nothing", { args: {} });
    assert.equal(tool.status, 404);
    assert.equal(errorOf(tool.body).code, "tool_not_found");
    const plugin = await send(app, "/api/plugins/nobody");
    assert.equal(plugin.status, 404);
    assert.equal(errorOf(plugin.body).code, "plugin_not_found");
    const route = await send(app, "/api/nowhere");
    assert.equal(route.status, 404);
    assert.equal(errorOf(route.body).code, "not_found");
    await serving(app);
  });
});

Deno.test("app: a call answers the ToolCallResult; failures keep their codes and statuses", async () => {
  await using h = await Harness.open();
  await h.runtime.install(join(FIXTURES_DIR, "hook-recorder"), { trust: "trusted" });
  await h.installTrusted(
    manifestFor("picky", {
      capabilities: ["tools", "fs:read"],
      tools: [{ name: "need", params: [{ name: "n", type: "number", required: true }] }, {
        name: "read",
        capabilities: ["fs:read"],
      }],
    }),
    `const def = (name) => ({ name, description: "", params: [], capabilities: name === "read" ? ["fs:read"] : [] });
     export const tools = [
       { definition: def("need"), execute: (args) => { if (args.n < 0) throw new Error("negative"); return { toolName: "need", success: true, output: String(args.n * 2), durationMs: 0 }; } },
       { definition: def("read"), execute: () => ({ toolName: "read", success: true, output: "ok", durationMs: 0 }) },
     ];`,
  );
  const app = createApp(h.runtime, { token: TOKEN });
  const ok = await call(app, "picky.need", { args: { n: 21 } });
  assert.equal(ok.status, 200);
  assert.deepEqual({ ...ok.body, durationMs: 0 }, {
    toolName: "picky.need",
    success: true,
    output: "42",
    durationMs: 0,
  });
  const thrown = await call(app, "picky.need", { args: { n: -1 } });
  assert.equal(thrown.status, 200);
  assert.equal(thrown.body.errorCode, "call_failed");
  const invalid = await call(app, "picky.need", { args: { n: "x" } });
  assert.equal(invalid.status, 400);
  assert.equal(errorOf(invalid.body).code, "args_invalid");
  await h.runtime.setPermissions("picky", {
    overrides: [{ capability: "fs:read", decision: "deny", scope: [] }],
  });
  const denied = await call(app, "picky.read", {});
  assert.equal(denied.status, 403);
  assert.equal(errorOf(denied.body).code, "permission_denied");
  const audit = h.runtime.store.audit.recent({ plugin: "picky" });
  assert.ok(audit.length >= 2 && audit.every((a) => a.caller === "person"));
});

Deno.test("app: /api/plugins and /api/tools describe what runs", async () => {
  await withApp(async (app) => {
    const { body } = await send(app, "/api/plugins");
    const [plugin] = body.plugins as Record<string, unknown>[];
    assert.equal(plugin.name, "hook-recorder");
    assert.equal(plugin.active, true);
    assert.deepEqual(plugin.tools, ["hook-recorder.ping"]);
    const tools = (await send(app, "/api/tools")).body.tools as Record<string, unknown>[];
    assert.deepEqual(tools.map((t) => [t.name, t.plugin]), [["hook-recorder.ping", "hook-recorder"]]);
    assert.deepEqual((tools[0].inputSchema as Record<string, unknown>).type, "object");
  });
});

Deno.test("app: /api/events returns recent events in order, after `since`", async () => {
  await withApp(async (app, h) => {
    await serving(app);
    h.runtime.emit("session:start", { sessionId: "s-7" });
    const { status, body } = await send(app, "/api/events");
    assert.equal(status, 200);
    const events = body.events as { seq: number; type: string; payload: Record<string, unknown> }[];
    const types = events.map((e) => e.type);
    const pre = types.lastIndexOf("tool:pre-execute");
    assert.ok(
      pre >= 0 && types[pre + 1] === "tool:post-execute" && types[pre + 2] === "session:start",
      types.join(),
    );
    assert.deepEqual(events.at(-1)!.payload, { sessionId: "s-7" });
    assert.ok(events.every((e, i) => i === 0 || e.seq > events[i - 1].seq));
    const since = await send(app, `/api/events?since=${events.at(-2)!.seq}`);
    assert.deepEqual((since.body.events as unknown[]).length, 1);
    for (const query of ["since=-1", "since=x", "limit=0", "limit=5000"]) {
      const bad = await send(app, `/api/events?${query}`);
      assert.equal(bad.status, 400, query);
      assert.equal(errorOf(bad.body).code, "bad_request");
    }
  });
});
