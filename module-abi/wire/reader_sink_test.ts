import { deepEqual } from "node:assert/strict";
import type { ModuleWireError } from "../errors.ts";
import { encodeFrameText } from "./encode.ts";
import type { ModuleFrame } from "./frame.ts";
import { FrameReader } from "./reader.ts";

/** Reads `chunks` through `read(chunk, sink)`, recording frame types and error codes in order. */
function viaSink(chunks: Uint8Array[]): string[] {
  const reader = new FrameReader();
  const seen: string[] = [];
  const sink = {
    onFrame: (frame: ModuleFrame) => seen.push(frame.type),
    onMalformed: (error: ModuleWireError) => seen.push(error.code),
  };
  for (const chunk of chunks) reader.read(chunk, sink);
  return seen;
}

Deno.test("reader: read(chunk, sink) reports the same lines, in the same order, as push", () => {
  const text = [
    encodeFrameText({ type: "call", request_id: "h1000000001", method: "echo", payload: { n: 1 } }),
    '{"type":"result","request_id":"h1","payload":1e999}\n',
    "\n",
    encodeFrameText({ type: "result", request_id: "h1000000002", payload: "ok" }),
    '{"type":"event","name":"tick","payload":"\\ud800"}\n',
    '{"type":"event","name":"tick","payload":[1]}\n',
  ].join("");
  const bytes = new TextEncoder().encode(text);
  const expected = ["call", "frame_not_json", "frame_too_short", "result", "frame_not_json", "event"];
  deepEqual(viaSink([bytes]), expected);
  const pushed = new FrameReader().push(bytes).map((r) => r.ok ? r.frame.type : r.error.code);
  deepEqual(pushed, expected);
  // Split anywhere, the result is the same.
  for (const at of [1, 17, 60, bytes.length - 1]) {
    deepEqual(viaSink([bytes.subarray(0, at), bytes.subarray(at)]), expected, `split at ${at}`);
  }
});

Deno.test("reader: a line with invalid UTF-8 fails alone; the valid lines of its chunk still decode", () => {
  const head = new TextEncoder().encode(
    '{"type":"event","name":"a","payload":1}\n{"type":"event","name":"b","payload":"',
  );
  const tail = new TextEncoder().encode('"}\n{"type":"event","name":"c","payload":"\uFFFD"}\n');
  const bytes = new Uint8Array([...head, 0xff, ...tail]);
  deepEqual(viaSink([bytes]), ["event", "frame_not_json", "event"]);
});
