import { equal, match, notEqual, rejects } from "node:assert/strict";
import { CortexError } from "../runtime/errors.ts";
import { PendingRequests } from "./pending.ts";

Deno.test("pending: ids are the prefix and at least ten digits, counting up; only issued ids settle", async () => {
  const pending = new PendingRequests("h");
  const first = pending.open("call a", { timeoutMs: 60_000 });
  match(first.id, /^h[1-9][0-9]{9,}$/);
  let previous = first.id;
  for (let i = 0; i < 1500; i++) {
    const { id, answer } = pending.open("call b", { timeoutMs: 60_000 });
    equal(Number(id.slice(1)), Number(previous.slice(1)) + 1);
    previous = id;
    equal(pending.resolve(id, i), "settled");
    equal(await answer, i);
  }
  const digits = first.id.slice(1);
  for (const foreign of ["m" + digits, "h0" + digits, "h" + digits + "0", "h", "", "h12", "hx" + digits]) {
    equal(pending.resolve(foreign, null), "unknown", foreign);
  }
  equal(pending.reject(first.id, new CortexError("nope", "no")), "settled");
  await rejects(first.answer, (e) => e instanceof CortexError && e.code === "nope");
  equal(pending.resolve(first.id, 1), "unknown");
  equal(pending.size, 0);
});

Deno.test("pending: a deadline counts from when the opening code yields, and an answer in time cancels it", async () => {
  const pending = new PendingRequests("h");
  const fast = pending.open("call fast", { timeoutMs: 20 });
  const answered = pending.open("call answered", { timeoutMs: 20 });
  equal(pending.resolve(answered.id, "ok"), "settled");
  await rejects(fast.answer, (e) => e instanceof CortexError && e.code === "call_timeout");
  equal(await answered.answer, "ok");
  notEqual(pending.resolve(fast.id, 1), "settled");
  pending.failAll(new Error("done"));
});

Deno.test("pending: requests failed before their deadlines are stamped leave no timer behind", async () => {
  const pending = new PendingRequests("h");
  const call = pending.open("call x", { timeoutMs: 60_000 });
  pending.failAll(new CortexError("connection_closed", "closed"));
  await rejects(call.answer, (e) => e instanceof CortexError && e.code === "connection_closed");
  // The test sanitizer fails this test if a timer is still armed when it ends.
});
