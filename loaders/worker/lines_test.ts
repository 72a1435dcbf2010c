import assert from "node:assert/strict";
import { LineWriter, readLines } from "./_lines.ts";

function source(chunks: string[]) {
  const encoded = chunks.map((c) => new TextEncoder().encode(c));
  return {
    read: (p: Uint8Array) => {
      const next = encoded.shift();
      if (!next) return Promise.resolve(null);
      p.set(next);
      return Promise.resolve(next.length);
    },
  };
}

Deno.test("readLines splits across chunks and skips a line over the cap whole", async () => {
  const lines: string[] = [];
  const oversized: number[] = [];
  await readLines(source(["a\nbb", "b\n", "x".repeat(20), "yyy\nc\n", "é\n"]), (l) => lines.push(l), {
    maxChars: 8,
    onOversized: (n, head) => oversized.push(n, head.length),
  });
  assert.deepEqual(lines, ["a", "bbb", "c", "é"]);
  assert.deepEqual(oversized, [23, 20]);
});

Deno.test("LineWriter batches lines queued together into one write", async () => {
  const writes: string[] = [];
  const writer = new LineWriter({
    write: (p) => {
      writes.push(new TextDecoder().decode(p));
      return Promise.resolve(p.length);
    },
  });
  writer.write("one");
  writer.write("two");
  await writer.drained();
  writer.write("three");
  await writer.drained();
  assert.deepEqual(writes, ["one\ntwo\n", "three\n"]);
});
