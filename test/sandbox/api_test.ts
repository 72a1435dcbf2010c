/**
 * The whole plugin API across the sandbox boundary: tools with the merged
 * context, every lifecycle hook, state, config and onConfigChange, the
 * logger (and console), host.registerTool, the events field with onEvent,
 * globalEventBus subscriptions, and pre and post middleware.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { assertDenied, openSandbox } from "./sandbox_harness.ts";

Deno.test("sandbox api: the whole plugin API works across the boundary", async () => {
  await using h = await openSandbox();
  const installed = await h.install("api-tour");
  assert.equal(installed.loadError, undefined, installed.loadError?.message);
  const state = h.runtime.store.state;

  // Hooks: onInstall, onLoad, onActivate ran, in the Worker, through ctx.state.
  assert.equal(state.get("api-tour", "installed"), "yes");
  assert.equal(state.get("api-tour", "loads"), "1");
  assert.equal(state.get("api-tour", "activated"), "yes");

  // Tools get one object that is both ToolContext and PluginContext.
  const who = await h.runtime.call("api-tour.whoami", {}, {
    caller: "agent:a1",
    sessionId: "s1",
    agentId: "a1",
    workingDir: "/work",
    workspaceDir: "/ws",
  });
  assert.deepEqual(JSON.parse(who.output), {
    caller: "agent:a1",
    sessionId: "s1",
    agentId: "a1",
    workingDir: "/work",
    workspaceDir: "/ws",
    pluginId: "api-tour",
    pluginDir: join(h.home, "data", "plugins", "api-tour"),
    dataDir: join(h.home, "data", "plugin-data", "api-tour"),
    signal: true,
    services: ["function", "function", "function", "function"],
  });

  // State round trip.
  const listed = JSON.parse((await h.call("api-tour.state")).output);
  assert.equal(listed.loads, "1");
  assert.equal(listed.scratch, undefined);

  // Config: defaults, get() with no key, set() from the plugin, onConfigChange.
  const before = JSON.parse((await h.call("api-tour.config")).output);
  assert.deepEqual(before, { one: "hello", whole: { greeting: "hello" }, all: { greeting: "hello" } });
  const after = JSON.parse((await h.call("api-tour.config", { set: "hi" })).output);
  assert.equal(after.one, "hi");
  assert.equal(await h.runtime.getConfig("api-tour", "greeting"), "hi");
  await h.runtime.setConfig("api-tour", "greeting", "hey");
  assert.equal(state.get("api-tour", "config-change"), JSON.stringify({ key: "greeting", value: "hey" }));

  // A tool registered with host.registerTool in onLoad.
  assert.equal((await h.call("api-tour.dynamic")).output, "registered at run time");

  // Events: the manifest's events field reaches onEvent; globalEventBus reaches the Worker's bus.
  h.runtime.emit("session:start", { sessionId: "s9" });
  h.runtime.emit("agent:turn-start", { sessionId: "s9", turnId: "t7" });
  await h.until(async () => JSON.parse((await h.call("api-tour.seen")).output).length >= 2);
  assert.deepEqual(JSON.parse((await h.call("api-tour.seen")).output).sort(), [
    "bus:agent:turn-start:t7",
    'event:session:start:{"sessionId":"s9"}',
  ]);

  // Middleware: pre may reject or rewrite, post may rewrite, for another plugin's tool.
  const blocked = await h.call("echo.echo", { text: "blocked" });
  assert.equal(blocked.errorCode, "middleware_rejected");
  assert.equal(blocked.error, "api-tour blocks this");
  assert.equal((await h.call("echo.echo", { text: "rewrite" })).output, "rewritten by api-tour (post)");
  assert.equal((await h.call("echo.echo", { text: "plain" })).output, "plain (post)");

  // The logger and console both reach the plugin's log.
  const log = await h.log("api-tour");
  assert.match(log, /INFO loaded in a sandbox \(1\)/);
  assert.match(log, /INFO console output goes to the plugin log/);

  // onDeactivate and onUnload run on unload; onUninstall on remove.
  await h.runtime.unload("api-tour");
  assert.equal(state.get("api-tour", "deactivated"), "yes");
  assert.equal(state.get("api-tour", "unloaded"), "yes");
  await h.runtime.load("api-tour");
  assert.equal(state.get("api-tour", "loads"), "2");
  await h.runtime.remove("api-tour");
  assert.match(await h.log("api-tour"), /onUninstall ran/);
  await h.assertEchoAnswers();
});

Deno.test("sandbox api: a plugin without events:listener cannot subscribe to the runtime's events", async () => {
  await using h = await openSandbox();
  await h.install("snoop");
  assertDenied(
    await h.call("snoop.attempt", { what: "subscribe", target: "tool:post-execute" }),
    /PermissionDenied: subscribing to "tool:post-execute" needs the "events:listener" capability/,
  );
  await h.assertEchoAnswers();
});
