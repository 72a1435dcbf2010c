import { equal, rejects } from "node:assert/strict";
import { CortexError } from "../runtime/errors.ts";
import { PendingRequests } from "./pending.ts";

const hasCode = (code: string) => (e: unknown) => e instanceof CortexError && e.code === code;

Deno.test("pending: answers reach their own request, in any order", async () => {
  const pending = new PendingRequests("h");
  const a = pending.open("call a", { timeoutMs: 5_000 });
  const b = pending.open("call b", { timeoutMs: 5_000 });
  equal(pending.settle(b.id, { ok: true, payload: "B" }), "settled");
  equal(pending.settle(a.id, { ok: false, error: new CortexError("nope", "no") }), "settled");
  equal(await b.answer, "B");
  await rejects(a.answer, hasCode("nope"));
  equal(pending.settle(a.id, { ok: true, payload: 1 }), "unknown");
  pending.failAll(new Error("done"));
});

Deno.test("pending: a short deadline fires even while a long one is armed; its late answer is known", async () => {
  const pending = new PendingRequests("h");
  const long = pending.open("call long", { timeoutMs: 60_000 });
  const short = pending.open("lifecycle init", { timeoutMs: 50, timeoutCode: "lifecycle_timeout" });
  await rejects(short.answer, hasCode("lifecycle_timeout"));
  equal(pending.settle(short.id, { ok: true, payload: null }), "late");
  equal(pending.size, 1);
  pending.failAll(new CortexError("connection_closed", "closed"));
  await rejects(long.answer, hasCode("connection_closed"));
});

Deno.test("pending: aborting rejects at once, and an aborted signal rejects on open", async () => {
  const pending = new PendingRequests("h");
  const controller = new AbortController();
  const call = pending.open("call x", { timeoutMs: 60_000, signal: controller.signal });
  controller.abort();
  await rejects(call.answer, hasCode("call_aborted"));
  const again = pending.open("call y", { timeoutMs: 60_000, signal: controller.signal });
  await rejects(again.answer, hasCode("call_aborted"));
  pending.failAll(new Error("done"));
});
