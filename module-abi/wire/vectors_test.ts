import { deepEqual, equal, fail, ok } from "node:assert/strict";
import { ModuleWireError } from "../errors.ts";
import { type ByteSpec, expandBytes, expandValue, loadVectors } from "../testdata/vectors.ts";
import { decodeFrame } from "./decode.ts";
import { encodeFrame } from "./encode.ts";
import type { ModuleFrame } from "./frame.ts";
import { FrameReader, type FrameReadResult } from "./reader.ts";

interface Outcome {
  name: string;
  error?: string;
  field?: string;
}

function expectError(vector: Outcome, run: () => unknown): void {
  try {
    run();
  } catch (error) {
    ok(error instanceof ModuleWireError, `${vector.name}: ${error}`);
    equal(error.code, vector.error, vector.name);
    if (vector.field) equal(error.field, vector.field, vector.name);
    return;
  }
  fail(`${vector.name}: expected ${vector.error}`);
}

Deno.test("vectors: decode.jsonl", async () => {
  const vectors = await loadVectors<
    Outcome & { raw: ByteSpec; frame?: unknown }
  >("decode.jsonl");
  ok(vectors.length > 80);
  for (const vector of vectors) {
    const bytes = expandBytes(vector.raw);
    if (vector.error) expectError(vector, () => decodeFrame(bytes));
    else deepEqual(decodeFrame(bytes), expandValue(vector.frame), vector.name);
  }
});

Deno.test("vectors: encode.jsonl", async () => {
  const vectors = await loadVectors<
    Outcome & { frame: unknown; raw?: ByteSpec }
  >("encode.jsonl");
  for (const vector of vectors) {
    const frame = expandValue(vector.frame) as ModuleFrame;
    if (vector.error) expectError(vector, () => encodeFrame(frame));
    else deepEqual(encodeFrame(frame), expandBytes(vector.raw!), vector.name);
  }
});

function simplify(results: FrameReadResult[]): unknown[] {
  return results.map((
    r,
  ) => (r.ok ? { frame: r.frame } : { error: r.error.code }));
}

Deno.test("vectors: stream.jsonl in every chunking", async () => {
  const vectors = await loadVectors<{
    name: string;
    input: ByteSpec;
    results: unknown[];
    end: unknown[];
  }>("stream.jsonl");
  for (const vector of vectors) {
    const bytes = expandBytes(vector.input);
    const expected = expandValue(vector.results);
    // One byte at a time is the hardest case; big vectors use a small odd size to stay quick.
    const sizes = [bytes.length, bytes.length > 65_536 ? 997 : 1, 4096];
    for (const size of sizes) {
      const reader = new FrameReader();
      const got: FrameReadResult[] = [];
      for (let at = 0; at < bytes.length; at += Math.max(size, 1)) {
        got.push(...reader.push(bytes.subarray(at, at + Math.max(size, 1))));
      }
      deepEqual(simplify(got), expected, `${vector.name} (chunks of ${size})`);
      deepEqual(
        simplify(reader.end()),
        vector.end,
        `${vector.name} end (chunks of ${size})`,
      );
    }
  }
});
