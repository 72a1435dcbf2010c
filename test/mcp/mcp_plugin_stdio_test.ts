/**
 * An MCP server as a plugin, end to end: `examples/mcp/everything` (the MCP
 * project's reference server from npm, over stdio, under Deno with derived
 * permissions) installed through the runtime and called through the one call
 * path.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cacheEverything } from "../../mcp-bridge/testdata/everything.ts";
import { Harness } from "../support/harness.ts";
import { eventually, EXAMPLES_DIR, MCP_FIXTURES_DIR, refusal } from "../support/mcp.ts";

const EVERYTHING_DIR = join(EXAMPLES_DIR, "mcp", "everything");

/** A harness with the everything example installed (untrusted: an npm server runs sandboxed anyway). */
async function withEverything(): Promise<Harness> {
  await cacheEverything();
  // A deadline, not a measurement: the server's start (deno + npm) shares the machine with other tests.
  const h = await Harness.open({ defaultTimeoutMs: 15_000 });
  const { row, loadError } = await h.runtime.install(EVERYTHING_DIR);
  if (loadError) {
    await h[Symbol.asyncDispose]();
    throw loadError;
  }
  assert.equal(row.status, "active");
  return h;
}

/** Records the tool events of the runtime's bus. */
function recordToolEvents(h: Harness): { pre: string[]; post: { toolName: string; result: unknown }[] } {
  const seen = { pre: [] as string[], post: [] as { toolName: string; result: unknown }[] };
  h.runtime.events.on<{ toolName: string }>("tool:pre-execute", (p) => void seen.pre.push(p.toolName));
  h.runtime.events.on<{ toolName: string; result: unknown }>(
    "tool:post-execute",
    (p) => void seen.post.push(p),
  );
  return seen;
}

Deno.test("mcp plugin (stdio): every server tool is a runtime tool with the server's schema and annotations", async () => {
  await using h = await withEverything();

  // What the server itself lists, asked through the synthetic raw-request tool.
  const raw = await h.runtime.call(
    "everything.mcp_everything",
    { method: "tools/list", params: {} },
    { caller: "person" },
  );
  assert.equal(raw.success, true, raw.error);
  const listed = JSON.parse(raw.output) as {
    tools: { name: string; inputSchema: unknown; annotations?: unknown; description?: string }[];
  };
  assert.ok(listed.tools.length >= 5, `server-everything lists its tools: ${raw.output.slice(0, 200)}`);

  const tools = h.runtime.tools("everything");
  assert.deepEqual(
    tools.map((t) => t.qualifiedName).sort(),
    ["everything.mcp_everything", ...listed.tools.map((t) => `everything.${t.name}`)].sort(),
  );
  for (const served of listed.tools) {
    const tool = tools.find((t) => t.name === served.name)!;
    assert.equal(tool.owner, "everything");
    assert.deepEqual(
      tool.inputSchema,
      served.inputSchema,
      `${served.name}: schema kept as the server gave it`,
    );
    assert.deepEqual(tool.annotations, served.annotations, `${served.name}: annotations kept`);
    assert.equal(tool.description, served.description ?? "");
  }
  const sum = tools.find((t) => t.name === "get-sum")!;
  assert.deepEqual((sum.inputSchema as { required: string[] }).required, ["a", "b"]);
  assert.equal(sum.annotations?.readOnlyHint, true);

  // The synthetic tool has a schema of its own, and refuses what would break the session.
  const synthetic = tools.find((t) => t.name === "mcp_everything")!;
  assert.deepEqual((synthetic.inputSchema as { required: string[] }).required, ["method", "params"]);
  const init = await h.runtime.call(
    "everything.mcp_everything",
    { method: "initialize", params: {} },
    { caller: "person" },
  );
  assert.equal(init.success, false);
  assert.equal(init.errorCode, "mcp_bad_method");
});

Deno.test("mcp plugin (stdio): a call goes through the one call path: events, audit with the caller", async () => {
  await using h = await withEverything();
  const events = recordToolEvents(h);

  const echoed = await h.runtime.call("everything.echo", { message: "hello cortex" }, { caller: "person" });
  assert.equal(echoed.success, true, echoed.error);
  assert.equal(echoed.output, "Echo: hello cortex");
  const summed = await h.runtime.call("everything.get-sum", { a: 2, b: 40 }, { caller: "agent:claude" });
  assert.match(summed.output, /\b42\b/);

  assert.deepEqual(events.pre, ["everything.echo", "everything.get-sum"]);
  assert.deepEqual(events.post.map((p) => p.toolName), ["everything.echo", "everything.get-sum"]);
  assert.equal((events.post[0].result as { output: string }).output, "Echo: hello cortex");

  const audit = h.runtime.store.audit.recent({ plugin: "everything" });
  assert.deepEqual(
    audit.map((a) => [a.tool, a.caller, a.success]),
    [["everything.get-sum", "agent:claude", true], ["everything.echo", "person", true]],
  );
});

Deno.test("mcp plugin (stdio): a trusted pre-middleware plugin can refuse an MCP tool call", async () => {
  await using h = await withEverything();
  const guard = await h.runtime.install(join(MCP_FIXTURES_DIR, "mcp-guard"), { trust: "trusted" });
  assert.equal(guard.loadError, undefined);
  const events = recordToolEvents(h);

  const refused = await h.runtime.call("everything.get-env", {}, { caller: "agent:claude" });
  assert.equal(refused.success, false);
  assert.equal(refused.errorCode, "middleware_rejected");
  assert.equal(refused.error, "mcp-guard refuses everything.get-env for agent:claude");
  assert.equal(refused.output, "", "the server's environment never reached the caller");
  assert.deepEqual(events.pre, [], "the call never reached the MCP server");

  const allowed = await h.runtime.call("everything.echo", { message: "fine" }, { caller: "agent:claude" });
  assert.equal(allowed.output, "Echo: fine");
  assert.deepEqual(events.pre, ["everything.echo"]);

  const audit = h.runtime.store.audit.recent({ plugin: "everything" });
  assert.deepEqual(
    audit.map((a) => [a.tool, a.caller, a.errorCode ?? null]),
    [["everything.echo", "agent:claude", null], [
      "everything.get-env",
      "agent:claude",
      "middleware_rejected",
    ]],
  );
});

Deno.test("mcp plugin (stdio): arguments that break the server's schema are refused before the call", async () => {
  await using h = await withEverything();
  const events = recordToolEvents(h);

  const wrongType = await refusal(
    h.runtime.call("everything.get-sum", { a: "two", b: 2 }, { caller: "person" }),
  );
  assert.equal(wrongType.code, "args_invalid");
  assert.match(wrongType.message, /"a" must be number, got string/);
  const missing = await refusal(h.runtime.call("everything.echo", {}, { caller: "person" }));
  assert.equal(missing.code, "args_invalid");
  assert.match(missing.message, /"message" is required/);
  const badEnum = await refusal(
    h.runtime.call("everything.get-structured-content", { location: "Paris" }, { caller: "person" }),
  );
  assert.equal(badEnum.code, "args_invalid");
  assert.deepEqual(events.pre, [], "nothing was sent to the server");

  // What the runtime does not check (a maximum) the server still refuses: a failed result, not a crash.
  const tooMany = await h.runtime.call("everything.get-resource-links", { count: 99 }, { caller: "person" });
  assert.equal(tooMany.success, false);
  assert.equal(tooMany.errorCode, "tool_failed");
  assert.deepEqual(events.pre, ["everything.get-resource-links"]);
});

Deno.test("mcp plugin (stdio): a call past its deadline is call_timeout and the server keeps serving", async () => {
  await using h = await withEverything();
  const late = await h.runtime.call(
    "everything.trigger-long-running-operation",
    { duration: 30, steps: 3 },
    { caller: "person", timeoutMs: 300 },
  );
  assert.equal(late.success, false);
  assert.equal(late.errorCode, "call_timeout");
  assert.match(late.error ?? "", /did not answer within 300 ms/);

  assert.equal(h.runtime.plugin("everything").status, "active");
  const after = await h.runtime.call("everything.echo", { message: "still here" }, { caller: "person" });
  assert.equal(after.output, "Echo: still here");
  const audit = h.runtime.store.audit.recent({ plugin: "everything" });
  assert.equal(audit[1].errorCode, "call_timeout");
});

Deno.test("mcp plugin (stdio): the server's stderr goes to the plugin's log", async () => {
  await using h = await withEverything();
  // server-everything announces itself on stderr when it starts.
  await eventually(
    async () =>
      (await h.logLines("everything")).some((line) => line.includes("Starting default (STDIO) server")),
    "server-everything's stderr line in logs/everything.log",
  );
  const line = (await h.logLines("everything")).find((l) => l.includes("Starting default (STDIO) server"))!;
  assert.match(line, /^\S+ INFO /, `an info line with its time: ${line}`);
});
