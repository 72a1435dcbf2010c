import assert from "node:assert/strict";
import { Harness, manifestFor, refusal } from "../test/support/harness.ts";
import type { CallerLabel } from "./policy.ts";

const TARGET_MANIFEST = manifestFor("target", {
  capabilities: ["tools", "fs:read"],
  limits: { timeoutMs: 200 },
  tools: [
    {
      name: "echo",
      params: [
        { name: "text", type: "string", required: true },
        { name: "mode", type: "string", enum: ["plain", "loud"] },
        { name: "times", type: "number" },
      ],
    },
    { name: "calls" },
    { name: "hang" },
    { name: "boom" },
    { name: "shape", params: [{ name: "kind", type: "string", required: true }] },
    { name: "context" },
    { name: "liar" },
    { name: "refuse" },
    { name: "read-file", capabilities: ["fs:read"] },
  ],
});

const TARGET_CODE = `
let calls = 0;
const def = (name, capabilities = []) => ({ name, description: "", params: [], capabilities });
const ok = (output) => ({ toolName: "whatever", success: true, output, durationMs: 0 });
const SHAPES = {
  text: "just text",
  number: 42,
  array: [],
  nothing: undefined,
  "no-success": { output: "x" },
  "output-not-string": { success: true, output: 42 },
};
export const tools = [
  { definition: def("echo"), execute: async (args) => {
    calls++;
    return ok(args.mode === "loud" ? String(args.text).toUpperCase() : String(args.text));
  } },
  { definition: def("calls"), execute: () => ok(String(calls)) },
  { definition: def("hang"), execute: () => new Promise(() => {}) },
  { definition: def("boom"), execute: () => { throw new Error("the boom tool exploded"); } },
  { definition: def("shape"), execute: (args) => SHAPES[args.kind] },
  { definition: def("context"), execute: (_args, ctx) => ok(JSON.stringify({
    caller: ctx.caller, sessionId: ctx.sessionId, agentId: ctx.agentId, workingDir: ctx.workingDir,
    workspaceDir: ctx.workspaceDir, pluginId: ctx.pluginId, pluginDir: ctx.pluginDir,
    services: [typeof ctx.state.get, typeof ctx.config.get, typeof ctx.logger.info, typeof ctx.host.registerTool],
    signal: ctx.signal instanceof AbortSignal,
  })) },
  { definition: def("liar"), execute: () => ({ toolName: "someone-else.tool", success: true, output: "ok", durationMs: 99999 }) },
  { definition: def("refuse"), execute: () => ({ toolName: "refuse", success: false, output: "", error: "not today", durationMs: 0 }) },
  { definition: def("read-file", ["fs:read"]), execute: () => ok("read") },
];
`;

async function withTarget(fn: (h: Harness) => Promise<void>): Promise<void> {
  await using h = await Harness.open();
  await h.installTrusted(TARGET_MANIFEST, TARGET_CODE);
  await fn(h);
}

async function callCount(h: Harness): Promise<number> {
  return Number((await h.runtime.call("target.calls", {}, { caller: "person" })).output);
}

Deno.test("call: a tool answers with its output under its qualified name", async () => {
  await withTarget(async (h) => {
    const result = await h.runtime.call("target.echo", { text: "hi", mode: "loud" }, { caller: "person" });
    assert.equal(result.success, true);
    assert.equal(result.output, "HI");
    assert.equal(result.toolName, "target.echo");
    assert.equal(result.errorCode, undefined);
  });
});

Deno.test("call: an unknown tool is tool_not_found", async () => {
  await withTarget(async (h) => {
    for (const name of ["target.nope", "nobody.echo", "echo", ""]) {
      const e = await refusal(h.runtime.call(name, {}, { caller: "person" }));
      assert.equal(e.code, "tool_not_found", name);
    }
  });
});

Deno.test("call: arguments failing the schema are args_invalid, naming the argument, and the tool does not run", async () => {
  await withTarget(async (h) => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{}, /"text" is required/],
      [{ text: 5 }, /"text" must be string, got number/],
      [{ text: "x", mode: "whisper" }, /"mode" must be one of "plain", "loud"/],
      [{ text: "x", extra: true }, /"extra" is not a parameter/],
      [{ text: "x", times: Infinity }, /"times" must be number/],
    ];
    for (const [args, expected] of cases) {
      const e = await refusal(h.runtime.call("target.echo", args, { caller: "person" }));
      assert.equal(e.code, "args_invalid");
      assert.match(e.message, expected);
    }
    const notObject = await refusal(h.runtime.call("target.echo", [] as unknown as Record<string, unknown>, {
      caller: "person",
    }));
    assert.equal(notObject.code, "args_invalid");
    assert.equal(await callCount(h), 0);
  });
});

// BUG: once disabled, a plugin's tools are unregistered, so the call path answers
// tool_not_found ("no tool named ...") instead of the plugin_disabled its doc
// promises; the in-process CLI says plugin_disabled while the daemon says 404.
Deno.test("call: a tool of a disabled plugin is refused as plugin_disabled", async () => {
  await withTarget(async (h) => {
    await h.runtime.disable("target");
    const e = await refusal(h.runtime.call("target.echo", { text: "x" }, { caller: "person" }));
    assert.equal(e.code, "plugin_disabled", e.message);
    await h.runtime.enable("target");
    assert.equal((await h.runtime.call("target.echo", { text: "x" }, { caller: "person" })).output, "x");
  });
});

Deno.test("call: a denied capability is permission_denied; other tools keep working", async () => {
  await withTarget(async (h) => {
    assert.equal((await h.runtime.call("target.read-file", {}, { caller: "person" })).output, "read");
    await h.runtime.setPermissions("target", {
      overrides: [{ capability: "fs:read", decision: "deny", scope: [] }],
    });
    assert.deepEqual(h.runtime.permissions("target").effective, ["tools"]);
    const e = await refusal(h.runtime.call("target.read-file", {}, { caller: "person" }));
    assert.equal(e.code, "permission_denied");
    assert.match(e.message, /"fs:read"/);
    assert.equal(
      (await h.runtime.call("target.echo", { text: "still" }, { caller: "person" })).output,
      "still",
    );
    const audit = h.runtime.store.audit.recent({ plugin: "target" });
    assert.ok(
      !audit.some((a) => a.tool === "target.read-file" && a.success === false && a.errorCode === undefined),
    );
  });
});

Deno.test("call: a tool that never returns is call_timeout at the plugin's deadline, or the caller's shorter one", async () => {
  await withTarget(async (h) => {
    const result = await h.runtime.call("target.hang", {}, { caller: "person" });
    assert.equal(result.success, false);
    assert.equal(result.errorCode, "call_timeout");
    assert.match(result.error!, /within 200 ms/);
    const shorter = await h.runtime.call("target.hang", {}, { caller: "person", timeoutMs: 30 });
    assert.match(shorter.error!, /within 30 ms/);
    const longer = await h.runtime.call("target.hang", {}, { caller: "person", timeoutMs: 60_000 });
    assert.match(longer.error!, /within 200 ms/, "a caller cannot extend the plugin's deadline");
    assert.equal(
      (await h.runtime.call("target.echo", { text: "alive" }, { caller: "person" })).output,
      "alive",
    );
  });
});

Deno.test("call: a tool that throws is call_failed with its message", async () => {
  await withTarget(async (h) => {
    const result = await h.runtime.call("target.boom", {}, { caller: "person" });
    assert.equal(result.success, false);
    assert.equal(result.errorCode, "call_failed");
    assert.match(result.error!, /the boom tool exploded/);
    assert.equal(result.output, "");
  });
});

Deno.test("call: a malformed result is call_failed, whatever its shape", async () => {
  await withTarget(async (h) => {
    for (const kind of ["text", "number", "array", "nothing", "no-success", "output-not-string"]) {
      const result = await h.runtime.call("target.shape", { kind }, { caller: "person" });
      assert.equal(result.success, false, kind);
      assert.equal(result.errorCode, "call_failed", kind);
      assert.match(result.error!, /ToolCallResult/, kind);
    }
  });
});

Deno.test("call: a tool reporting failure keeps its error and gets tool_failed", async () => {
  await withTarget(async (h) => {
    const result = await h.runtime.call("target.refuse", {}, { caller: "person" });
    assert.equal(result.success, false);
    assert.equal(result.error, "not today");
    assert.equal(result.errorCode, "tool_failed");
  });
});

Deno.test("call: the runtime sets toolName and measures durationMs, whatever the tool claims", async () => {
  await withTarget(async (h) => {
    const result = await h.runtime.call("target.liar", {}, { caller: "person" });
    assert.equal(result.toolName, "target.liar");
    assert.notEqual(result.durationMs, 99999);
    assert.ok(result.durationMs >= 0 && result.durationMs < 99999);
    const failed = await h.runtime.call("target.boom", {}, { caller: "person" });
    assert.equal(typeof failed.durationMs, "number");
  });
});

Deno.test("call: execute gets one object that is both ToolContext and PluginContext", async () => {
  await withTarget(async (h) => {
    const result = await h.runtime.call("target.context", {}, {
      caller: "agent:planner",
      sessionId: "s-1",
      agentId: "planner",
      workingDir: "/work",
      workspaceDir: "/ws",
    });
    const seen = JSON.parse(result.output);
    assert.deepEqual(seen, {
      caller: "agent:planner",
      sessionId: "s-1",
      agentId: "planner",
      workingDir: "/work",
      workspaceDir: "/ws",
      pluginId: "target",
      pluginDir: h.runtime.home.pluginsDir + "/target",
      services: ["function", "function", "function", "function"],
      signal: true,
    });
  });
});

Deno.test("call: the caller label is recorded in the audit log with the outcome", async () => {
  await withTarget(async (h) => {
    const callers: CallerLabel[] = ["person", "agent:planner-1", "module:indexer", "hook"];
    for (const caller of callers) await h.runtime.call("target.echo", { text: caller }, { caller });
    await h.runtime.call("target.boom", {}, { caller: "agent:planner-1" });
    const audit = h.runtime.store.audit.recent({ plugin: "target" });
    assert.deepEqual(audit.map((a) => a.caller).reverse(), [...callers, "agent:planner-1"]);
    assert.deepEqual(
      { tool: audit[0].tool, success: audit[0].success, errorCode: audit[0].errorCode },
      { tool: "target.boom", success: false, errorCode: "call_failed" },
    );
    assert.ok(
      audit.every((a) => typeof a.durationMs === "number" && !Number.isNaN(Date.parse(String(a.at)))),
    );
  });
});

Deno.test("call: a malformed caller label is refused before anything runs", async () => {
  await withTarget(async (h) => {
    for (const caller of ["root", "agent:", "agent:a b", "module:../x", "person\n"]) {
      const e = await refusal(
        h.runtime.call("target.echo", { text: "x" }, { caller: caller as CallerLabel }),
      );
      assert.equal(e.code, "usage", caller);
    }
    assert.equal(await callCount(h), 0);
  });
});

Deno.test("call: tool:pre-execute and tool:post-execute are emitted around the call", async () => {
  await withTarget(async (h) => {
    const seen: { type: string; payload: Record<string, unknown> }[] = [];
    h.events!.on(
      "tool:pre-execute",
      (p) => void seen.push({ type: "pre", payload: p as Record<string, unknown> }),
    );
    h.events!.on(
      "tool:post-execute",
      (p) => void seen.push({ type: "post", payload: p as Record<string, unknown> }),
    );
    const result = await h.runtime.call("target.echo", { text: "evt" }, { caller: "person" });
    assert.deepEqual(seen.map((s) => s.type), ["pre", "post"]);
    assert.deepEqual(seen[0].payload, { toolName: "target.echo", args: { text: "evt" } });
    assert.deepEqual(seen[1].payload, { toolName: "target.echo", result });
  });
});

Deno.test("call: a throwing or never-settling event handler blocks neither the call nor other handlers", async () => {
  await using h = await Harness.open();
  await h.installTrusted(TARGET_MANIFEST, TARGET_CODE);
  h.events!.on("tool:pre-execute", () => {
    throw new Error("sync handler failure");
  });
  h.events!.on("tool:pre-execute", () => Promise.reject(new Error("async handler failure")));
  h.events!.on("tool:pre-execute", () => new Promise(() => {}));
  h.events!.on("tool:post-execute", () => new Promise(() => {}));
  const heard: string[] = [];
  h.events!.on("tool:pre-execute", () => void heard.push("pre"));
  h.events!.on("tool:post-execute", () => void heard.push("post"));
  const result = await h.runtime.call("target.echo", { text: "through" }, { caller: "person" });
  assert.equal(result.output, "through");
  assert.deepEqual(heard, ["pre", "post"]);
});
