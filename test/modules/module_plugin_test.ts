/**
 * CortexFS external modules through the runtime: installed like any plugin,
 * started as supervised processes on a runtime-owned socket, each capability
 * a tool on the one call path, events on the bus under the module's
 * namespace, the module's own calls answered by the runtime, restarts after
 * a crash, and stop/shutdown on unload.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Harness } from "../support/harness.ts";

const EXAMPLES = join(import.meta.dirname!, "..", "..", "examples", "modules");
const PY = join(EXAMPLES, "echo-tool-py");
const TS = join(EXAMPLES, "ticker-channel-ts");

Deno.test("module: an untrusted module process does not start until the person allows its program", async () => {
  await using h = await Harness.open({ defaultTimeoutMs: 10_000 });
  const { row, loadError } = await h.runtime.install(PY);
  assert.equal(loadError?.code, "permission_denied");
  assert.match(loadError!.message, /--set shell:run=grant:python3|--trust trusted/);
  assert.equal(row.status, "error");
  assert.deepEqual(h.runtime.tools("echo-tool-py"), []);
  const { loadError: after } = await h.runtime.setPermissions("echo-tool-py", { trust: "trusted" });
  assert.equal(after, undefined);
  assert.equal(h.runtime.plugin("echo-tool-py").status, "active");
});

Deno.test("module: capabilities are tools on the one call path; the socket is owner-only", async () => {
  await using h = await Harness.open({ defaultTimeoutMs: 10_000 });
  await h.runtime.install(PY, { trust: "trusted" });
  assert.deepEqual(h.runtime.tools("echo-tool-py").map((t) => t.qualifiedName), [
    "echo-tool-py.echo",
    "echo-tool-py.reverse",
  ]);
  const result = await h.runtime.call("echo-tool-py.reverse", { text: "stressed" }, { caller: "agent:t" });
  assert.equal(result.success, true, result.error);
  assert.deepEqual(JSON.parse(result.output), { text: "desserts" });
  await assert.rejects(h.runtime.call("echo-tool-py.echo", { text: 1 }, { caller: "person" }), {
    code: "args_invalid",
  });
  assert.deepEqual(h.runtime.store.audit.recent({ plugin: "echo-tool-py" }).map((a) => a.caller), [
    "agent:t",
  ]);
  const socketDir = join(h.home, "sockets", "echo-tool-py");
  assert.equal((await Deno.stat(socketDir)).mode! & 0o777, 0o700);
  const boundary = h.runtime.boundary("echo-tool-py")!;
  assert.equal(boundary.moduleId, "tool.echo");
  assert.equal(boundary.state, "running");
  assert.equal(typeof boundary.pid, "number");
});

Deno.test("module: events go on the bus as module:<plugin>:<name>, and module calls reach tools as module:<plugin>", async () => {
  await using h = await Harness.open({ defaultTimeoutMs: 10_000 });
  await h.runtime.install(PY, { trust: "trusted" });
  await h.runtime.install(TS, { trust: "trusted" });
  const ticks: unknown[] = [];
  h.events!.on("module:ticker-channel-ts:tick", (payload) => void ticks.push(payload));
  const tick = await h.runtime.call("ticker-channel-ts.tick", { count: 3 }, { caller: "person" });
  assert.equal(tick.success, true, tick.error);
  for (let i = 0; i < 50 && ticks.length < 3; i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(ticks.length, 3);

  const relay = await h.runtime.call("ticker-channel-ts.relay", {
    method: "tools.call",
    payload: { name: "echo-tool-py.echo", args: { text: "through the host" } },
  }, { caller: "person" });
  assert.equal(relay.success, true, relay.error);
  const inner = JSON.parse(relay.output);
  assert.equal(inner.success, true);
  assert.deepEqual(JSON.parse(inner.output), { text: "through the host" });
  const callers = h.runtime.store.audit.recent({ plugin: "echo-tool-py" }).map((a) => a.caller);
  assert.deepEqual(callers, ["module:ticker-channel-ts"]);

  // A method the runtime does not offer is refused with a clear error, and the module keeps serving.
  const refused = await h.runtime.call("ticker-channel-ts.relay", { method: "fs.read", payload: {} }, {
    caller: "person",
  });
  assert.equal(refused.success, false);
  assert.match(refused.error ?? "", /unknown_method|not "fs\.read"/);
  assert.equal((await h.runtime.call("ticker-channel-ts.tick", {}, { caller: "person" })).success, true);
});

Deno.test("module: a killed module process restarts on the next call", async () => {
  await using h = await Harness.open({ defaultTimeoutMs: 10_000 });
  await h.runtime.install(PY, { trust: "trusted" });
  const first = h.runtime.boundary("echo-tool-py")!.pid as number;
  Deno.kill(first, "SIGKILL");
  for (let i = 0; i < 100 && h.runtime.boundary("echo-tool-py")!.state === "running"; i++) {
    await new Promise((r) => setTimeout(r, 20));
  }
  const result = await h.runtime.call("echo-tool-py.echo", { text: "again" }, { caller: "person" });
  assert.equal(result.success, true, result.error);
  const after = h.runtime.boundary("echo-tool-py")!;
  assert.notEqual(after.pid, first);
  assert.equal(after.restarts, 1);
});

Deno.test("module: unloading sends stop and shutdown, and the process is gone", async () => {
  await using h = await Harness.open({ defaultTimeoutMs: 10_000 });
  await h.runtime.install(PY, { trust: "trusted" });
  const pid = h.runtime.boundary("echo-tool-py")!.pid as number;
  await h.runtime.disable("echo-tool-py");
  const log = (await h.logLines("echo-tool-py")).join("\n");
  assert.match(log, /lifecycle stop/);
  assert.match(log, /lifecycle shutdown/);
  assert.throws(() => Deno.kill(pid, "SIGCONT"));
});
