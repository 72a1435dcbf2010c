import { deepEqual, equal, ok } from "node:assert/strict";
import { WriteQueue } from "./write_queue.ts";

const decoder = new TextDecoder();

/** A write function that records what it was given and writes at most `most` bytes each time. */
function recorder(most = Infinity) {
  const writes: string[] = [];
  const write = (bytes: Uint8Array) => {
    const n = Math.min(bytes.length, most);
    writes.push(decoder.decode(bytes.subarray(0, n)));
    return Promise.resolve(n);
  };
  return { writes, write };
}

Deno.test("write queue: text pushed in one tick leaves in one write, after the tick's code", async () => {
  const { writes, write } = recorder();
  const queue = new WriteQueue(write, () => {});
  queue.push("a\n");
  queue.push("b\n");
  deepEqual(writes, []);
  equal(queue.idle, false);
  await queue.flushed;
  deepEqual(writes, ["a\nb\n"]);
  equal(queue.idle, true);
});

Deno.test("write queue: flush writes at once; text pushed during a write leaves in the next one", async () => {
  const { writes, write } = recorder();
  const queue = new WriteQueue(write, () => {});
  queue.push("one\n");
  queue.flush();
  deepEqual(writes, ["one\n"]);
  queue.push("two\n");
  queue.push("three\n");
  queue.flush(); // a write is running: this waits its turn
  deepEqual(writes, ["one\n"]);
  await queue.flushed;
  deepEqual(writes, ["one\n", "two\nthree\n"]);
});

Deno.test("write queue: a partial write is continued in order; non-ASCII text is encoded whole", async () => {
  const parts: Uint8Array[] = [];
  const queue = new WriteQueue((bytes) => {
    const n = Math.min(bytes.length, 3);
    parts.push(bytes.slice(0, n));
    return Promise.resolve(n);
  }, () => {});
  queue.push("héllo\n");
  await queue.flushed;
  equal(parts.length, 3);
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (all.set(p, at), at + p.length), 0);
  equal(decoder.decode(all), "héllo\n");
});

Deno.test("write queue: a batch larger than the reused buffer is written whole", async () => {
  const { writes, write } = recorder();
  const queue = new WriteQueue(write, () => {});
  const big = "x".repeat(100_000) + "\n";
  queue.push(big);
  queue.push("after\n");
  await queue.flushed;
  equal(writes.join(""), big + "after\n");
});

Deno.test("write queue: the first write error is reported once, and later text is dropped", async () => {
  const errors: Error[] = [];
  let calls = 0;
  const queue = new WriteQueue(() => {
    calls++;
    return Promise.reject(new Error("broken pipe"));
  }, (error) => errors.push(error));
  queue.push("a\n");
  await queue.flushed;
  queue.push("b\n");
  await queue.flushed;
  equal(calls, 1);
  equal(errors.length, 1);
  ok(queue.idle);
});

Deno.test("write queue: clear drops what is queued and not yet written", async () => {
  const { writes, write } = recorder();
  const queue = new WriteQueue(write, () => {});
  queue.push("dropped\n");
  queue.clear();
  await queue.flushed;
  deepEqual(writes, []);
});
