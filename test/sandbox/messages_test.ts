/**
 * Hostile plugins against the message channel: forged replies, other
 * plugins' names, frames of the process layer posted from inside a Worker,
 * malformed and oversized messages, and prototype pollution. Each is
 * dropped and logged, never trusted; the plugin's honest answers still work
 * and nothing of another plugin changes.
 */
import assert from "node:assert/strict";
import { openSandbox } from "./sandbox_harness.ts";

Deno.test("sandbox messages: forged RPC messages are dropped and logged, never trusted", async () => {
  await using h = await openSandbox();
  await h.install("forger");
  const toolsBefore = h.runtime.tools().map((t) => t.qualifiedName);
  const result = await h.call("forger.forge");
  assert.ok(result.success, result.error);
  assert.equal(result.output, "honest answer");
  const log = await h.log("forger");
  assert.match(log, /dropped a reply to call 987654, which was never made/);
  assert.match(log, /dropped a malformed message/);
  assert.match(log, /dropped a message that is not JSON/);
  assert.doesNotMatch(log, /FORGED LOG/);
  assert.doesNotMatch(await h.log("echo"), /FORGED/);
  assert.deepEqual(h.runtime.tools().map((t) => t.qualifiedName), toolsBefore);
  await h.assertEchoAnswers();
  assert.equal((await h.call("forger.honest")).output, "still honest");
});

Deno.test("sandbox messages: prototype pollution through messages does not reach the host", async () => {
  await using h = await openSandbox();
  await h.install("forger");
  const result = await h.call("forger.pollute");
  assert.equal(result.success, true);
  assert.equal(result.output, "polluting");
  assert.equal(Object.getPrototypeOf(result), Object.prototype);
  const probe: Record<string, unknown> = {};
  assert.equal(probe.polluted, undefined);
  assert.equal(probe.pollutedInWorker, undefined);
  await h.assertEchoAnswers();
});

Deno.test("sandbox messages: an oversized answer is dropped and the call says why", async () => {
  await using h = await openSandbox({ loader: { maxMessageChars: 1024 * 1024 } });
  await h.install("forger");
  const result = await h.call("forger.huge");
  assert.equal(result.success, false);
  assert.equal(result.errorCode, "call_failed");
  assert.match(result.error ?? "", /over the sandbox's 1048576 limit/);
  assert.match(await h.log("forger"), /dropped an oversized message/);
  await h.assertEchoAnswers();
  assert.equal((await h.call("forger.honest")).output, "still honest");
});
