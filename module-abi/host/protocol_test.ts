import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { CortexError } from "../../runtime/errors.ts";
import { collector, fixtureSpec, recorded, tempDir } from "./_test_support.ts";
import { startModuleProcess } from "./start_module_process.ts";

const hasCode = (code: string) => (e: unknown) => e instanceof CortexError && e.code === code;

Deno.test("protocol: a module that writes one byte at a time works", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const mod = await startModuleProcess(fixtureSpec(dir, "byte_at_a_time"));
    deepEqual(await mod.call("echo", { text: "slow", n: [1, 2] }), { text: "slow", n: [1, 2] });
    equal((await mod.stop()).reason, "stopped");
  } finally {
    await cleanup();
  }
});

async function expectViolation(mode: string, code: string): Promise<void> {
  const { dir, cleanup } = await tempDir();
  const seen = collector();
  try {
    const mod = await startModuleProcess(fixtureSpec(dir, mode), seen);
    await rejects(mod.call("echo", 1), hasCode("protocol_violation"));
    const exit = await mod.exited;
    equal(exit.reason, "protocol_violation");
    equal(mod.state, "failed");
    const lines = await recorded(dir);
    const sent = JSON.parse(lines.at(-2)!);
    equal(sent.type, "error", `the host answers ${mode} with an error frame`);
    equal(sent.code, code);
    equal(sent.request_id, undefined);
    equal(lines.at(-1), "closed");
    // The host is still up: another module starts and answers.
    const again = await startModuleProcess(fixtureSpec(dir, "good"));
    equal(await again.call("echo", "still here"), "still here");
    await again.stop();
  } finally {
    await cleanup();
  }
}

Deno.test("protocol: garbage gets an error frame and a closed connection", async () => {
  await expectViolation("garbage", "frame_not_json");
});

Deno.test("protocol: a frame over 1 MiB is refused with frame_too_large", async () => {
  await expectViolation("oversized", "frame_too_large");
});

Deno.test("protocol: an answer to a request never made is a violation", async () => {
  await expectViolation("unknown_answer", "protocol_violation");
});

Deno.test("protocol: a frame before ready fails the handshake", async () => {
  const { dir, cleanup } = await tempDir();
  const seen = collector();
  try {
    await rejects(
      startModuleProcess(fixtureSpec(dir, "call_before_ready"), seen),
      hasCode("protocol_violation"),
    );
    equal(seen.exits[0].reason, "protocol_violation");
  } finally {
    await cleanup();
  }
});

Deno.test("protocol: a call past its deadline or aborted fails clearly; the module stays up", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const mod = await startModuleProcess(fixtureSpec(dir, "hang_on_call"));
    await rejects(mod.call("echo", 1, { timeoutMs: 200 }), hasCode("call_timeout"));
    const controller = new AbortController();
    const aborted = mod.call("echo", 2, { signal: controller.signal });
    controller.abort();
    await rejects(aborted, hasCode("call_aborted"));
    await rejects(mod.lifecycle("init"), hasCode("invalid_state"));
    equal(mod.state, "running");
    await mod.stop();
  } finally {
    await cleanup();
  }
});

Deno.test("protocol: an answer that arrives after its deadline is dropped, not a violation", async () => {
  const { dir, cleanup } = await tempDir();
  const seen = collector();
  try {
    const mod = await startModuleProcess(fixtureSpec(dir, "good"), seen);
    await rejects(mod.call("echo", "slow", { timeoutMs: 50 }), hasCode("call_timeout"));
    // The fixture answers in order, so this answer comes after the late one.
    equal(await mod.call("echo", "slow"), "slow");
    ok(seen.logs.some((line) => line.startsWith("host: a late answer")), seen.logs.join("\n"));
    equal(mod.state, "running");
    await mod.stop();
  } finally {
    await cleanup();
  }
});

Deno.test("protocol: pending calls fail with module_exited when the module dies", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const mod = await startModuleProcess(fixtureSpec(dir, "exit_on_call"));
    const error = await mod.call("echo", 1).catch((e) => e);
    ok(error instanceof CortexError);
    ok(["module_exited", "connection_closed"].includes(error.code), error.code);
    const exit = await mod.exited;
    deepEqual([exit.reason, exit.code], ["exited", 3]);
  } finally {
    await cleanup();
  }
});
