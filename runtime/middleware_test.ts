import assert from "node:assert/strict";
import { Harness, manifestFor } from "../test/support/harness.ts";

/** A plugin whose `echo` tool returns its `text` argument and counts its runs. */
const TARGET_MANIFEST = manifestFor("target", {
  tools: [
    {
      name: "echo",
      params: [{ name: "text", type: "string", required: true }, { name: "trail", type: "string" }],
    },
    { name: "calls" },
  ],
});
const TARGET_CODE = `
let calls = 0;
const def = (name) => ({ name, description: "", params: [], capabilities: [] });
export const tools = [
  { definition: def("echo"), execute: (args) => {
    calls++;
    return { toolName: "echo", success: true, output: args.trail ? args.text + "|" + args.trail : args.text, durationMs: 0 };
  } },
  { definition: def("calls"), execute: () => ({ toolName: "calls", success: true, output: String(calls), durationMs: 0 }) },
];
`;

/**
 * A middleware plugin. `pre` and `post` are function bodies over
 * `(toolName, args|result, ctx, call)`; calls of `target.calls` pass untouched so
 * the tests can count runs.
 */
function guard(name: string, pre: string | undefined, post?: string, extra: Record<string, unknown> = {}) {
  const capabilities = [...(pre ? ["middleware:pre"] : []), ...(post ? ["middleware:post"] : [])];
  const code = [
    pre
      ? `export async function preMiddleware(toolName, args, ctx, call) {
          if (call.qualifiedName === "target.calls") return { allowed: true };
          ${pre}
        }`
      : "",
    post
      ? `export async function postMiddleware(toolName, result, ctx, call) {
          if (call.qualifiedName === "target.calls") return result;
          ${post}
        }`
      : "",
  ].join("\n");
  return { manifest: manifestFor(name, { capabilities, limits: { timeoutMs: 150 }, ...extra }), code };
}

async function setup(...guards: ReturnType<typeof guard>[]): Promise<Harness> {
  const h = await Harness.open();
  try {
    await h.installTrusted(TARGET_MANIFEST, TARGET_CODE);
    for (const g of guards) await h.installTrusted(g.manifest, g.code);
    return h;
  } catch (error) {
    await h[Symbol.asyncDispose]();
    throw error;
  }
}

async function calls(h: Harness): Promise<number> {
  return Number((await h.runtime.call("target.calls", {}, { caller: "person" })).output);
}

Deno.test("pre-middleware: a rejection fails the call with its reason, and the tool does not run", async () => {
  await using h = await setup(guard("guard", `return { allowed: false, reason: "blocked: " + args.text };`));
  const result = await h.runtime.call("target.echo", { text: "rm -rf" }, { caller: "person" });
  assert.equal(result.success, false);
  assert.equal(result.errorCode, "middleware_rejected");
  assert.equal(result.error, "blocked: rm -rf");
  assert.equal(await calls(h), 0);
  const audit = h.runtime.store.audit.recent({ plugin: "target" });
  assert.equal(audit.find((a) => a.tool === "target.echo")?.errorCode, "middleware_rejected");
});

Deno.test("pre-middleware: a rejection without a reason still says who rejected it", async () => {
  await using h = await setup(guard("quiet-guard", `return { allowed: false };`));
  const result = await h.runtime.call("target.echo", { text: "x" }, { caller: "person" });
  assert.equal(result.errorCode, "middleware_rejected");
  assert.match(result.error!, /quiet-guard/);
});

Deno.test("pre-middleware: rewritten arguments are what the tool and tool:pre-execute see", async () => {
  await using h = await setup(
    guard("rewriter", `return { allowed: true, args: { ...args, text: args.text.toUpperCase() } };`),
  );
  const seen: unknown[] = [];
  h.events!.on("tool:pre-execute", (p) => void seen.push(p));
  const result = await h.runtime.call("target.echo", { text: "quiet" }, { caller: "person" });
  assert.equal(result.output, "QUIET");
  assert.deepEqual(seen, [{ toolName: "target.echo", args: { text: "QUIET" } }]);
});

Deno.test("pre-middleware: allowing without args passes the arguments on unchanged", async () => {
  await using h = await setup(guard("passer", `return { allowed: true };`));
  assert.equal((await h.runtime.call("target.echo", { text: "same" }, { caller: "person" })).output, "same");
});

Deno.test("pre-middleware: rewriting into arguments the tool's schema refuses fails the call", async () => {
  await using h = await setup(guard("breaker", `return { allowed: true, args: { text: 42 } };`));
  const result = await h.runtime.call("target.echo", { text: "x" }, { caller: "person" });
  assert.equal(result.success, false);
  assert.equal(result.errorCode, "middleware_failed");
  assert.match(result.error!, /"text" must be string/);
  assert.equal(await calls(h), 0);
});

Deno.test("pre-middleware: one that throws rejects the call (fail closed)", async () => {
  await using h = await setup(guard("thrower", `throw new Error("guard crashed");`));
  const result = await h.runtime.call("target.echo", { text: "x" }, { caller: "person" });
  assert.equal(result.success, false);
  assert.equal(result.errorCode, "middleware_failed");
  assert.match(result.error!, /thrower.*guard crashed/);
  assert.equal(await calls(h), 0);
});

Deno.test("pre-middleware: one that never answers rejects the call at its deadline (fail closed)", async () => {
  await using h = await setup(guard("sleeper", `return await new Promise(() => {});`));
  const result = await h.runtime.call("target.echo", { text: "x" }, { caller: "person" });
  assert.equal(result.success, false);
  assert.equal(result.errorCode, "middleware_failed");
  assert.match(result.error!, /sleeper did not answer within 150 ms/);
  assert.equal(await calls(h), 0);
});

Deno.test("pre-middleware: a malformed answer rejects the call", async () => {
  for (const answer of [`"yes"`, `undefined`, `{ allowed: "maybe" }`, `{ allowed: true, args: [1] }`, `{}`]) {
    await using h = await setup(guard("garbled", `return ${answer};`));
    const result = await h.runtime.call("target.echo", { text: "x" }, { caller: "person" });
    assert.equal(result.errorCode, "middleware_failed", answer);
    assert.match(result.error!, /garbled answered malformed/, answer);
    assert.equal(await calls(h), 0, answer);
  }
});

Deno.test("post-middleware: may rewrite the result, and tool:post-execute sees the rewrite", async () => {
  await using h = await setup(
    guard(
      "redactor",
      undefined,
      `return { ...result, output: result.output.replace("secret", "[redacted]") };`,
    ),
  );
  const seen: { result: { output: string } }[] = [];
  h.events!.on("tool:post-execute", (p) => void seen.push(p as { result: { output: string } }));
  const result = await h.runtime.call("target.echo", { text: "the secret word" }, { caller: "person" });
  assert.equal(result.output, "the [redacted] word");
  assert.equal(result.toolName, "target.echo");
  assert.equal(seen[0].result.output, "the [redacted] word");
});

Deno.test("post-middleware: may turn a success into a failure", async () => {
  await using h = await setup(
    guard("vetoer", undefined, `return { ...result, success: false, output: "", error: "vetoed" };`),
  );
  const result = await h.runtime.call("target.echo", { text: "x" }, { caller: "person" });
  assert.equal(result.success, false);
  assert.equal(result.error, "vetoed");
});

Deno.test("post-middleware: one that throws leaves the result as it was and is logged", async () => {
  await using h = await setup(guard("clumsy", undefined, `throw new Error("post crashed");`));
  const result = await h.runtime.call("target.echo", { text: "intact" }, { caller: "person" });
  assert.equal(result.success, true);
  assert.equal(result.output, "intact");
  assert.ok((await h.logLines("clumsy")).some((l) => l.includes("post crashed")));
});

Deno.test("middleware: runs in plugin-name order, whatever the install order", async () => {
  const step = (name: string) =>
    guard(
      name,
      `return { allowed: true, args: { ...args, trail: (args.trail ? args.trail + "," : "") + "${name}" } };`,
      `return { ...result, output: result.output + ">${name}" };`,
    );
  await using h = await setup(step("mw-charlie"), step("mw-alpha"), step("mw-bravo"));
  const result = await h.runtime.call("target.echo", { text: "t" }, { caller: "person" });
  assert.equal(result.output, "t|mw-alpha,mw-bravo,mw-charlie>mw-alpha>mw-bravo>mw-charlie");
  await h.reopen();
  await h.runtime.loadAll();
  const again = await h.runtime.call("target.echo", { text: "t" }, { caller: "person" });
  assert.equal(again.output, result.output);
});

Deno.test("middleware: the first rejection stops the chain; later middleware does not run", async () => {
  await using h = await setup(
    guard("mw-a-no", `return { allowed: false, reason: "a says no" };`),
    guard("mw-b-throws", `throw new Error("should not run");`),
  );
  const result = await h.runtime.call("target.echo", { text: "x" }, { caller: "person" });
  assert.equal(result.errorCode, "middleware_rejected");
  assert.equal(result.error, "a says no");
});

Deno.test("middleware: exported without the middleware capability, it does not run", async () => {
  const undeclared = guard("undeclared", `return { allowed: false, reason: "should not run" };`);
  undeclared.manifest.capabilities = ["tools"];
  await using h = await setup(undeclared);
  assert.equal((await h.runtime.call("target.echo", { text: "free" }, { caller: "person" })).output, "free");
});

Deno.test("middleware: denying middleware:pre switches the plugin's pre-middleware off", async () => {
  await using h = await setup(guard("deniable", `return { allowed: false, reason: "no" };`));
  assert.equal((await h.runtime.call("target.echo", { text: "x" }, { caller: "person" })).success, false);
  await h.runtime.setPermissions("deniable", {
    overrides: [{ capability: "middleware:pre", decision: "deny", scope: [] }],
  });
  assert.equal((await h.runtime.call("target.echo", { text: "x" }, { caller: "person" })).output, "x");
});

Deno.test("middleware: disabling the plugin removes its middleware", async () => {
  await using h = await setup(guard("removable", `return { allowed: false, reason: "no" };`));
  await h.runtime.disable("removable");
  assert.equal((await h.runtime.call("target.echo", { text: "x" }, { caller: "person" })).output, "x");
  await h.runtime.enable("removable");
  assert.equal(
    (await h.runtime.call("target.echo", { text: "x" }, { caller: "person" })).errorCode,
    "middleware_rejected",
  );
});

Deno.test("middleware: gets the tool's own name, as a published guard expects, and the qualified name beside it", async () => {
  await using h = await setup(
    guard(
      "namer",
      `if (toolName === "echo") return { allowed: false, reason: JSON.stringify([toolName, call]) };
       return { allowed: true };`,
    ),
  );
  const result = await h.runtime.call("target.echo", { text: "x" }, { caller: "agent:a1" });
  assert.equal(result.success, false);
  assert.equal(result.errorCode, "middleware_rejected");
  assert.deepEqual(JSON.parse(result.error!), [
    "echo",
    { qualifiedName: "target.echo", plugin: "target", caller: "agent:a1" },
  ]);
});
