import { deepEqual, equal, ok } from "node:assert/strict";
import { encodeFrame } from "./encode.ts";
import { MAX_FRAME_BYTES } from "./frame.ts";
import { FrameReader } from "./reader.ts";

const codes = (results: ReturnType<FrameReader["push"]>) =>
  results.map((r) => (r.ok ? r.frame.type : r.error.code));

Deno.test("reader: a frame written one byte at a time comes out once, at its newline", () => {
  const reader = new FrameReader();
  const bytes = encodeFrame({
    type: "call",
    request_id: "r1",
    method: "echo",
    payload: { a: "é" },
  });
  const seen: string[] = [];
  for (const [i, byte] of bytes.entries()) {
    const out = codes(reader.push(Uint8Array.of(byte)));
    if (i < bytes.length - 1) deepEqual(out, []);
    seen.push(...out);
  }
  deepEqual(seen, ["call"]);
  equal(reader.buffered, 0);
});

Deno.test("reader: refuses a line the moment 1 MiB holds no newline, before the rest arrives", () => {
  const reader = new FrameReader();
  deepEqual(
    codes(reader.push(new Uint8Array(MAX_FRAME_BYTES - 1).fill(0x78))),
    [],
  );
  equal(reader.buffered, MAX_FRAME_BYTES - 1);
  deepEqual(codes(reader.push(Uint8Array.of(0x78))), ["frame_too_large"]);
  equal(reader.buffered, 0);
});

Deno.test("reader: never holds more than 1 MiB while a 5 MiB line streams through", () => {
  const reader = new FrameReader();
  const chunk = new Uint8Array(65_536).fill(0x7a);
  const seen: string[] = [];
  for (let i = 0; i < 80; i++) {
    seen.push(...codes(reader.push(chunk)));
    ok(reader.buffered < MAX_FRAME_BYTES);
  }
  deepEqual(seen, ["frame_too_large"]);
  const next = encodeFrame({ type: "event", name: "after", payload: null });
  const tail = new Uint8Array(next.length + 1);
  tail.set([0x0a]);
  tail.set(next, 1);
  deepEqual(codes(reader.push(tail)), ["event"]);
});

Deno.test("reader: end reports a partial frame once and leaves the reader reusable", () => {
  const reader = new FrameReader();
  reader.push(new TextEncoder().encode('{"type":"ev'));
  deepEqual(codes(reader.end()), ["frame_unterminated"]);
  deepEqual(codes(reader.end()), []);
  const frame = encodeFrame({ type: "event", name: "n", payload: 1 });
  deepEqual(codes(reader.push(frame)), ["event"]);
});
