import assert from "node:assert/strict";
import { join } from "node:path";
import { defaultLoaders } from "../loaders/mod.ts";
import { EventBus } from "../runtime/event_bus.ts";
import { Runtime } from "../runtime/runtime.ts";
import { exists, FIXTURES_DIR, Harness, manifestFor } from "../test/support/harness.ts";
import { startDaemon } from "./daemon.ts";
import { Reconciler } from "./reconcile.ts";

const REPO = join(import.meta.dirname!, "..");
const RECORDER = join(FIXTURES_DIR, "hook-recorder");

/** Another process's view of the same home, as the CLI opens it: does `fn`, then closes. */
async function asAnotherProcess(home: string, fn: (runtime: Runtime) => Promise<unknown>): Promise<void> {
  const runtime = await Runtime.open({
    home,
    loaders: defaultLoaders(),
    events: new EventBus(),
    defaultTimeoutMs: 1000,
  });
  try {
    await fn(runtime);
  } finally {
    await runtime.close();
  }
}

/** Waits (up to 10 s) until `check` holds; the daemon follows changes on its own timer. */
async function eventually(what: string, check: () => Promise<boolean> | boolean): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`the daemon never got there: ${what}`);
}

/** One raw HTTP/1.1 request, so the Host header is exactly what a hostile page would send. */
async function rawRequest(
  port: number,
  host: string,
  path: string,
): Promise<{ status: number; body: string }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(
      new TextEncoder().encode(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
    );
    const text = new TextDecoder().decode(await new Response(conn.readable).arrayBuffer());
    return { status: Number(text.split(" ")[1]), body: text.slice(text.indexOf("\r\n\r\n") + 4) };
  } finally {
    try {
      conn.close();
    } catch {
      // The readable side already closed it.
    }
  }
}

Deno.test("daemon: serves on loopback, refuses bad requests with JSON, keeps serving, follows the CLI", async () => {
  await using h = await Harness.open();
  await h.runtime.install(RECORDER, { trust: "trusted" });
  const daemon = await startDaemon(h.runtime, { port: 0, reconcileEveryMs: 25 });
  try {
    assert.match(daemon.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const info = JSON.parse(await Deno.readTextFile(join(h.home, "daemon.json")));
    assert.equal(info.port, daemon.port);
    const token = (await Deno.readTextFile(join(h.home, "daemon.token"))).trim();
    assert.equal(token, daemon.token);
    const auth = { authorization: `Bearer ${token}` };
    const callPing = async () => {
      const response = await fetch(`${daemon.url}/api/tools/hook-recorder.ping/call`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ args: {} }),
      });
      return { status: response.status, body: await response.json() };
    };

    const unauthorized = await fetch(`${daemon.url}/api/plugins`);
    assert.equal(unauthorized.status, 401);
    assert.equal((await unauthorized.json()).error.code, "unauthorized");
    assert.equal((await callPing()).status, 200);

    const rebind = await rawRequest(daemon.port, "attacker.example", "/api/health");
    assert.equal(rebind.status, 403);
    assert.equal(JSON.parse(rebind.body).error.code, "forbidden_host");

    const badJson = await fetch(`${daemon.url}/api/tools/hook-recorder.ping/call`, {
      method: "POST",
      headers: auth,
      body: "{oops",
    });
    assert.equal(badJson.status, 400);
    assert.equal((await badJson.json()).error.code, "bad_request");
    const ping = await callPing();
    assert.equal(ping.status, 200);
    assert.equal(ping.body.output, "pong");

    // The CLI finds the running daemon and calls through it (the daemon hears the call).
    const cli = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--unstable-worker-options",
        "-A",
        join(REPO, "cli", "main.ts"),
        "plugins",
        "call",
        "hook-recorder",
        "ping",
        "--json",
      ],
      cwd: REPO,
      env: { CORTEX_HOME: h.home, NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(cli.code, 0, new TextDecoder().decode(cli.stderr));
    assert.equal(JSON.parse(new TextDecoder().decode(cli.stdout)).output, "pong");
    const posts = h.runtime.recentEvents().filter((e) => e.type === "tool:post-execute");
    assert.equal(posts.length, 3, "the CLI call did not go through the daemon");

    await asAnotherProcess(h.home, (other) => other.disable("hook-recorder"));
    await eventually("unload a plugin the CLI disabled", async () => (await callPing()).status !== 200);
    const refused = await callPing();
    assert.ok([404, 409].includes(refused.status), String(refused.status));
    assert.ok(
      ["tool_not_found", "plugin_disabled"].includes(refused.body.error.code),
      refused.body.error.code,
    );
    assert.equal(h.runtime.isActive("hook-recorder"), false);
    await asAnotherProcess(h.home, (other) => other.enable("hook-recorder"));
    await eventually("load a plugin the CLI enabled", async () => (await callPing()).status === 200);
  } finally {
    await daemon.close();
  }
  assert.equal(await exists(join(h.home, "daemon.json")), false);
  await assert.rejects(fetch(`${daemon.url}/api/health`));
});

async function withReconciler(fn: (h: Harness, reconciler: Reconciler) => Promise<void>): Promise<void> {
  await using h = await Harness.open();
  await h.runtime.install(RECORDER, { trust: "trusted" });
  const reconciler = new Reconciler(h.runtime);
  await reconciler.prime();
  await fn(h, reconciler);
}

Deno.test("reconcile: disable, enable and remove made by another process are followed", async () => {
  await withReconciler(async (h, reconciler) => {
    await asAnotherProcess(h.home, (other) => other.disable("hook-recorder"));
    await reconciler.tick();
    assert.equal(h.runtime.isActive("hook-recorder"), false);
    assert.deepEqual(h.runtime.tools(), []);
    await asAnotherProcess(h.home, (other) => other.enable("hook-recorder"));
    await reconciler.tick();
    assert.equal(h.runtime.isActive("hook-recorder"), true);
    assert.equal((await h.runtime.call("hook-recorder.ping", {}, { caller: "person" })).output, "pong");
    await asAnotherProcess(h.home, (other) => other.remove("hook-recorder"));
    await reconciler.tick();
    assert.equal(h.runtime.isActive("hook-recorder"), false);
    assert.deepEqual(h.runtime.tools(), []);
  });
});

Deno.test("reconcile: a plugin installed by another process is loaded", async () => {
  await withReconciler(async (h, reconciler) => {
    const dir = await h.plugin(
      manifestFor("newcomer"),
      `export const tools = [{
      definition: { name: "hi", description: "", params: [], capabilities: [] },
      execute: () => ({ toolName: "hi", success: true, output: "hi", durationMs: 0 }),
    }];`,
    );
    await asAnotherProcess(h.home, (other) => other.install(dir, { trust: "trusted" }));
    await reconciler.tick();
    assert.equal((await h.runtime.call("newcomer.hi", {}, { caller: "person" })).output, "hi");
    assert.equal(h.runtime.plugin("newcomer").status, "active");
  });
});

Deno.test("reconcile: a config change written by another process reaches onConfigChange", async () => {
  await withReconciler(async (h, reconciler) => {
    await asAnotherProcess(h.home, (other) => other.setConfig("hook-recorder", "greeting", "bonjour"));
    await reconciler.tick();
    assert.ok(
      (await h.logLines("hook-recorder")).some((l) => l.endsWith('hook onConfigChange greeting="bonjour"')),
    );
  });
});

// BUG: the reconciler only loads or unloads on `enabled`; a permission change made
// by the CLI (`plugins permissions <name> --set cap=deny`) while the daemon runs the
// plugin is never applied, so the daemon keeps granting what the person denied.
Deno.test("reconcile: a capability denied by another process is enforced by the running daemon", async () => {
  await using h = await Harness.open();
  await h.installTrusted(
    manifestFor("reader", {
      capabilities: ["tools", "fs:read"],
      tools: [{ name: "read", capabilities: ["fs:read"] }],
    }),
    `export const tools = [{
      definition: { name: "read", description: "", params: [], capabilities: ["fs:read"] },
      execute: () => ({ toolName: "read", success: true, output: "contents", durationMs: 0 }),
    }];`,
  );
  const reconciler = new Reconciler(h.runtime);
  await reconciler.prime();
  await asAnotherProcess(
    h.home,
    (other) =>
      other.setPermissions("reader", { overrides: [{ capability: "fs:read", decision: "deny", scope: [] }] }),
  );
  await reconciler.tick();
  const result = await h.runtime.call("reader.read", {}, { caller: "person" }).catch((e) => e);
  assert.equal(result?.code, "permission_denied", `the daemon still answered: ${JSON.stringify(result)}`);
});
