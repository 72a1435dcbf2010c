/**
 * Restarts and giving up: a crashed plugin restarts on its next call, with a
 * growing wait; after three crashes within the window it stays stopped, its
 * status `error` with the reason, until the person enables it again. A
 * plugin that only shared a process with the one at fault is not counted.
 */
import assert from "node:assert/strict";
import { CortexError } from "../../runtime/errors.ts";
import { openSandbox } from "./sandbox_harness.ts";

Deno.test("sandbox crashes: three crashes within the window stop the plugin until it is enabled again", async () => {
  await using h = await openSandbox({
    loader: { crashPolicy: { maxCrashes: 3, windowMs: 60_000, backoffMs: 50 } },
  });
  await h.install("exiter");
  for (let i = 1; i <= 3; i++) {
    const crash = await h.call("exiter.exit");
    assert.equal(crash.errorCode, "sandbox_crashed", `crash ${i}: ${crash.error}`);
    if (i < 3) assert.ok((await h.call("exiter.ok")).success, `no restart after crash ${i}`);
  }
  await h.until(() => h.runtime.plugin("exiter").enabled === 0);
  const row = h.runtime.plugin("exiter");
  assert.equal(row.status, "error");
  assert.match(
    row.error_message ?? "",
    /crashed 3 times within 1 minutes and stays disabled until it is enabled again/,
  );
  await assert.rejects(h.call("exiter.ok"), (e: unknown) => e instanceof CortexError);
  await h.assertEchoAnswers();
  await h.runtime.enable("exiter");
  assert.equal(h.runtime.plugin("exiter").status, "active");
  assert.ok((await h.call("exiter.ok")).success);
});

Deno.test("sandbox crashes: a plugin sharing a process with a looping one restarts at once and is not counted", async () => {
  await using h = await openSandbox({ timeoutMs: 800, loader: { crashPolicy: { maxCrashes: 1 } } });
  await h.install("looper");
  const shared = h.sandbox.processes().find((p) => p.plugins.includes("echo"));
  assert.deepEqual(shared?.plugins.sort(), ["echo", "looper"]);
  assert.equal((await h.call("looper.spin")).errorCode, "call_timeout");
  // looper gave up at its first crash; echo was only a bystander.
  await h.until(() => h.runtime.plugin("looper").status === "error");
  await h.assertEchoAnswers();
  assert.equal(h.runtime.plugin("echo").status, "active");
  assert.match(await h.log("echo"), /restarting: plugin looper missed its 800 ms deadline/);
  assert.match(await h.log("echo"), /\[sandbox\] restarted/);
});

Deno.test("sandbox crashes: after a crash the plugin runs in a process of its own", async () => {
  await using h = await openSandbox();
  await h.install("exiter");
  assert.ok(h.sandbox.processes().some((p) => p.shared && p.plugins.includes("exiter")));
  await h.call("exiter.exit");
  assert.ok((await h.call("exiter.ok")).success);
  const own = h.sandbox.processes().find((p) => p.plugins.includes("exiter"));
  assert.equal(own?.shared, false);
  assert.deepEqual(own?.plugins, ["exiter"]);
  await h.assertEchoAnswers();
});
