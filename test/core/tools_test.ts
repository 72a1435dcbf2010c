import assert from "node:assert/strict";
import { join } from "node:path";
import { FIXTURES_DIR, Harness, manifestFor, refusal } from "../support/harness.ts";

/** Module code exporting tools that answer `<plugin>:<tool>`; `extra` is appended. */
function answering(toolNames: string[], capabilities: Record<string, string[]> = {}, extra = ""): string {
  const tools = toolNames.map((name) =>
    `{
    definition: { name: ${JSON.stringify(name)}, description: "", params: [], capabilities: ${
      JSON.stringify(capabilities[name] ?? [])
    } },
    execute: (_args, ctx) => ({ toolName: ${
      JSON.stringify(name)
    }, success: true, output: ctx.pluginId + ":" + ${JSON.stringify(name)}, durationMs: 0 }),
  }`
  );
  return `export const tools = [${tools.join(",")}];\n${extra}`;
}

async function output(h: Harness, tool: string): Promise<string> {
  const result = await h.runtime.call(tool, {}, { caller: "person" });
  assert.equal(result.success, true, `${tool}: ${result.error}`);
  return result.output;
}

Deno.test("tools: two plugins may both have a tool named search", async () => {
  await using h = await Harness.open();
  await h.installTrusted(manifestFor("web-finder", { tools: [{ name: "search" }] }), answering(["search"]));
  await h.installTrusted(manifestFor("doc-finder", { tools: [{ name: "search" }] }), answering(["search"]));
  assert.equal(await output(h, "web-finder.search"), "web-finder:search");
  assert.equal(await output(h, "doc-finder.search"), "doc-finder:search");
  assert.deepEqual(h.runtime.tools().map((t) => t.qualifiedName), ["doc-finder.search", "web-finder.search"]);
  await h.runtime.disable("web-finder");
  assert.equal(await output(h, "doc-finder.search"), "doc-finder:search");
});

Deno.test("tools: host.registerTool adds a tool at run time, checked against the manifest", async () => {
  await using h = await Harness.open();
  const extra = `
    export function onLoad(ctx) {
      ctx.host.registerTool({
        definition: { name: "late", description: "registered in onLoad", params: [], capabilities: [] },
        execute: () => ({ toolName: "late", success: true, output: "late answer", durationMs: 0 }),
      });
    }`;
  await h.installTrusted(
    manifestFor("grower", {
      tools: [{ name: "early" }, {
        name: "late",
        description: "declared late",
        params: [{ name: "n", type: "number" }],
      }],
    }),
    answering(["early"], {}, extra),
  );
  assert.equal(await output(h, "grower.late"), "late answer");
  const late = h.runtime.tools("grower").find((t) => t.name === "late")!;
  assert.equal(late.description, "declared late", "the manifest's description wins");
  assert.equal(
    (await refusal(h.runtime.call("grower.late", { n: "x" }, { caller: "person" }))).code,
    "args_invalid",
    "the manifest's params apply to a registered tool",
  );
});

Deno.test("tools: registering a tool the manifest does not declare fails the load", async () => {
  await using h = await Harness.open();
  const extra = `
    export function onLoad(ctx) {
      ctx.host.registerTool({
        definition: { name: "stowaway", description: "", params: [], capabilities: [] },
        execute: () => ({ toolName: "stowaway", success: true, output: "", durationMs: 0 }),
      });
    }`;
  const dir = await h.plugin(
    manifestFor("smuggler", { tools: [{ name: "declared" }] }),
    answering(["declared"], {}, extra),
  );
  const { row } = await h.runtime.install(dir, { trust: "trusted" });
  assert.equal(row.status, "error");
  assert.match(row.error_message!, /"stowaway", which its manifest does not declare/);
  assert.deepEqual(h.runtime.tools("smuggler"), []);
});

Deno.test("tools: a plugin cannot unregister another plugin's tool, only its own", async () => {
  await using h = await Harness.open();
  await h.installTrusted(manifestFor("victim", { tools: [{ name: "search" }] }), answering(["search"]));
  const evict = `
    export const evictor = {
      definition: { name: "evict", description: "", params: [], capabilities: [] },
      execute: (_args, ctx) => {
        ctx.host.unregisterTool("search");
        ctx.host.unregisterTool("victim.search");
        ctx.host.unregisterTool("../victim.search");
        ctx.host.unregisterTool("own");
        return { toolName: "evict", success: true, output: "tried", durationMs: 0 };
      },
    };
    tools.push(evictor);`;
  await h.installTrusted(
    manifestFor("intruder", { tools: [{ name: "own" }, { name: "evict" }] }),
    answering(["own"], {}, evict),
  );
  assert.equal(await output(h, "intruder.evict"), "tried");
  assert.equal(await output(h, "victim.search"), "victim:search");
  assert.equal(
    (await refusal(h.runtime.call("intruder.own", {}, { caller: "person" }))).code,
    "tool_not_found",
  );
});

Deno.test("tools: an exported tool the manifest's tools do not declare keeps the plugin from loading", async () => {
  await using h = await Harness.open();
  const dir = await h.plugin(
    manifestFor("overeager", { tools: [{ name: "listed" }] }),
    answering(["listed", "unlisted"]),
  );
  const { row, loadError } = await h.runtime.install(dir, { trust: "trusted" });
  assert.equal(loadError?.code, "tool_undeclared");
  assert.equal(row.status, "error");
  assert.match(row.error_message!, /^tool_undeclared: .*"unlisted"/);
  assert.deepEqual(
    h.runtime.tools("overeager"),
    [],
    "no tool of a plugin that did not load stays registered",
  );
});

Deno.test("tools: a tool needing a capability the manifest does not declare keeps the plugin from loading", async () => {
  await using h = await Harness.open();
  const byCode = await h.plugin(
    manifestFor("reaches-far", { tools: [{ name: "wipe" }] }),
    answering(["wipe"], { wipe: ["fs:delete"] }),
  );
  const first = await h.runtime.install(byCode, { trust: "trusted" });
  assert.equal(first.loadError?.code, "tool_undeclared");
  assert.match(first.row.error_message!, /"wipe" of reaches-far needs fs:delete/);
  const byManifest = await h.plugin(
    manifestFor("declares-far", { tools: [{ name: "wipe", capabilities: ["fs:delete"] }] }),
    answering(["wipe"]),
  );
  const second = await h.runtime.install(byManifest, { trust: "trusted" });
  assert.equal(second.loadError?.code, "tool_undeclared");
  assert.match(second.row.error_message!, /needs fs:delete/);
});

Deno.test("tools: without a tools list in the manifest, every exported tool loads", async () => {
  await using h = await Harness.open();
  await h.installTrusted(manifestFor("free-form"), answering(["one", "two"]));
  assert.deepEqual(h.runtime.tools("free-form").map((t) => t.name), ["one", "two"]);
});

Deno.test("tools: an exported tool of the wrong shape keeps the plugin from loading, naming the field", async () => {
  await using h = await Harness.open();
  const dir = await h.plugin(
    manifestFor("misshapen"),
    `export const tools = [{ definition: { name: "bad name!", params: [] }, execute: "not a function" }];`,
  );
  const { row } = await h.runtime.install(dir, { trust: "trusted" });
  assert.equal(row.status, "error");
  assert.match(row.error_message!, /tools\[0\].*definition\.name/);
  assert.match(row.error_message!, /execute must be a function/);
});

// BUG: the `tools` capability is not enforced: a plugin that does not declare it
// still gets its tools registered, and denying it with `plugins permissions
// <name> --set tools=deny` changes nothing (middleware and events capabilities are
// enforced; tools should be too).
Deno.test("tools: exporting tools without the tools capability keeps the plugin from loading", async () => {
  await using h = await Harness.open();
  const dir = await h.plugin(manifestFor("no-tools-cap", { capabilities: [] }), answering(["sneak"]));
  const { row } = await h.runtime.install(dir, { trust: "trusted" });
  assert.equal(row.status, "error", "a plugin without the tools capability registered tools");
  assert.match(row.error_message ?? "", /^tool_undeclared: .*tools/);
});

Deno.test("tools: denying the tools capability takes the plugin's tools away", async () => {
  await using h = await Harness.open();
  await h.installTrusted(manifestFor("revocable"), answering(["act"]));
  await h.runtime.setPermissions("revocable", {
    overrides: [{ capability: "tools", decision: "deny", scope: [] }],
  });
  const result = h.runtime.call("revocable.act", {}, { caller: "person" });
  const e = await refusal(result);
  assert.ok(["permission_denied", "tool_not_found"].includes(e.code), e.code);
});

Deno.test("events: globalEventBus imported from cortex/plugins hears the runtime when it uses the global bus", async () => {
  await using h = await Harness.open({ events: null });
  await h.runtime.install(join(FIXTURES_DIR, "bus-listener"), { trust: "trusted" });
  await h.runtime.install(join(FIXTURES_DIR, "hook-recorder"), { trust: "trusted" });
  await h.runtime.call("hook-recorder.ping", {}, { caller: "person" });
  h.runtime.emit("session:start", { sessionId: "s-42" });
  const heard = JSON.parse(await output(h, "bus-listener.heard")) as string[];
  assert.ok(heard.includes("tool:post-execute hook-recorder.ping"), heard.join(", "));
  assert.ok(heard.includes("session:start s-42"), heard.join(", "));
});

Deno.test("events: the manifest's events reach onEvent; denying events:listener stops them", async () => {
  await using h = await Harness.open();
  const code = `
    const heard = [];
    export function onEvent(type, payload) { heard.push(type + " " + (payload.sessionId ?? payload.toolName)); }
    export const tools = [{
      definition: { name: "heard", description: "", params: [], capabilities: [] },
      execute: () => ({ toolName: "heard", success: true, output: JSON.stringify(heard), durationMs: 0 }),
    }];`;
  await h.installTrusted(
    manifestFor("subscriber", { capabilities: ["tools", "events:listener"], events: ["session:start"] }),
    code,
  );
  h.runtime.emit("session:start", { sessionId: "one" });
  h.runtime.emit("session:end", { sessionId: "not subscribed" });
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(JSON.parse(await output(h, "subscriber.heard")), ["session:start one"]);
  await h.runtime.setPermissions("subscriber", {
    overrides: [{ capability: "events:listener", decision: "deny", scope: [] }],
  });
  h.runtime.emit("session:start", { sessionId: "two" });
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(JSON.parse(await output(h, "subscriber.heard")), ["session:start one"]);
});
