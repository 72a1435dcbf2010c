/**
 * Hostile plugins against the runtime's resources: loops (in a tool, in
 * onLoad, at top level, in a timer), memory bombs, message floods, exits and
 * top-level throws. Each is stopped, its call answered with a clear error,
 * its process's core and memory reclaimed, and the bystander keeps answering.
 */
import assert from "node:assert/strict";
import { openSandbox, type SandboxHarness } from "./sandbox_harness.ts";

function pidOf(h: SandboxHarness, plugin: string): number {
  const found = h.sandbox.processes().find((p) => p.plugins.includes(plugin));
  assert.ok(found, `${plugin} runs in no sandbox process`);
  return found.pid;
}

async function processGone(h: SandboxHarness, pid: number): Promise<void> {
  await h.until(() => !h.sandbox.processes().some((p) => p.pid === pid));
  await h.until(async () => !(await Deno.stat(`/proc/${pid}`).then(() => true, () => false)));
}

Deno.test("sandbox limits: a tool that loops forever is stopped and its process killed; it restarts on the next call", async () => {
  await using h = await openSandbox({ timeoutMs: 1000 });
  await h.install("looper");
  const pid = pidOf(h, "looper");
  const result = await h.call("looper.spin");
  assert.equal(result.success, false);
  assert.equal(result.errorCode, "call_timeout");
  await processGone(h, pid);
  // The log line is written as the kill is handled, which can trail the process's exit.
  await h.until(async () => /missed its 1000 ms deadline and did not respond/.test(await h.log("looper")));
  // Between the crash and the restart the table says so.
  await h.until(() => h.runtime.plugin("looper").status === "error");
  assert.match(h.runtime.plugin("looper").error_message ?? "", /restarts on the next call/);
  await h.assertEchoAnswers();
  const again = await h.call("looper.ok");
  assert.ok(again.success, again.error);
  assert.notEqual(pidOf(h, "looper"), pid);
  assert.equal(h.runtime.plugin("looper").status, "active");
});

Deno.test("sandbox limits: a slow tool times out but is not killed: it answers pings", async () => {
  await using h = await openSandbox({ timeoutMs: 500 });
  await h.install("looper");
  const pid = pidOf(h, "looper");
  const result = await h.call("looper.slow");
  assert.equal(result.errorCode, "call_timeout");
  const again = await h.call("looper.ok");
  assert.ok(again.success);
  assert.equal(pidOf(h, "looper"), pid);
  assert.doesNotMatch(await h.log("looper"), /crashed/);
  await h.assertEchoAnswers();
});

const loadFailures: { name: string; fixture: string; code: string; message: RegExp }[] = [
  { name: "an onLoad that loops forever", fixture: "loop-onload", code: "hook_timeout", message: /onLoad/ },
  {
    name: "a module that loops forever at top level",
    fixture: "loop-top",
    code: "hook_timeout",
    message: /loading/,
  },
  {
    name: "a module that throws at top level",
    fixture: "throw-top",
    code: "hook_failed",
    message: /refusing to load/,
  },
  {
    name: "a module that calls Deno.exit at top level",
    fixture: "exit-top",
    code: "sandbox_crashed",
    message: /Deno.exit\(3\)/,
  },
];

for (const c of loadFailures) {
  Deno.test(`sandbox limits: ${c.name} does not load, and takes nothing down`, async () => {
    await using h = await openSandbox({ timeoutMs: 1000 });
    const result = await h.install(c.fixture);
    assert.ok(result.loadError, "it loaded");
    assert.equal(result.loadError.code, c.code);
    assert.match(result.loadError.message, c.message);
    assert.equal(h.runtime.plugin(c.fixture).status, "error");
    await h.until(() => !h.sandbox.processes().some((p) => p.plugins.includes(c.fixture)));
    await h.assertEchoAnswers();
  });
}

Deno.test("sandbox limits: a JS heap bomb hits the heap cap; the call fails and others keep answering", async () => {
  await using h = await openSandbox({ timeoutMs: 10_000, loader: { heapMb: 64 } });
  await h.install("bomb");
  const pid = pidOf(h, "bomb");
  const result = await h.call("bomb.heap");
  assert.equal(result.success, false);
  assert.match(result.error ?? "", /out of memory/);
  await processGone(h, pid);
  await h.assertEchoAnswers();
});

Deno.test("sandbox limits: memory outside the JS heap is capped by the process watchdog", async () => {
  await using h = await openSandbox({ timeoutMs: 10_000, loader: { heapMb: 64, rssBaseMb: 128 } });
  await h.install("bomb");
  const result = await h.call("bomb.buffers");
  assert.equal(result.success, false);
  assert.match(result.error ?? "", /MiB cap/);
  await h.assertEchoAnswers();
});

Deno.test("sandbox limits: a message flood stops the flooding plugin only", async () => {
  await using h = await openSandbox({ timeoutMs: 5000 });
  await h.install("flooder");
  const raw = await h.call("flooder.raw");
  assert.equal(raw.success, false);
  assert.match(raw.error ?? "", /flooded the host/);
  await h.assertEchoAnswers();
  const logs = await h.call("flooder.logs");
  assert.equal(logs.success, false);
  assert.match(logs.error ?? "", /flooded the host/);
  await h.assertEchoAnswers();
});

Deno.test("sandbox limits: Deno.exit in a tool ends only the plugin's Worker; it restarts on the next call", async () => {
  await using h = await openSandbox();
  await h.install("exiter");
  const result = await h.call("exiter.exit");
  assert.equal(result.success, false);
  assert.equal(result.errorCode, "sandbox_crashed");
  assert.match(result.error ?? "", /called Deno.exit\(1\)/);
  await h.assertEchoAnswers();
  const again = await h.call("exiter.ok");
  assert.ok(again.success, again.error);
  const closed = await h.call("exiter.close");
  assert.match(closed.error ?? closed.output, /Deno.exit\(0\)|closing/);
  assert.ok((await h.call("exiter.ok")).success);
  await h.assertEchoAnswers();
});

Deno.test("sandbox limits: a busy loop started from a timer is caught by the heartbeat", async () => {
  await using h = await openSandbox({ timeoutMs: 300, loader: { heartbeatMs: 200 } });
  await h.install("background-loop");
  await h.until(async () => /did not respond for 200 ms/.test(await h.log("background-loop")));
  await h.assertEchoAnswers();
});
