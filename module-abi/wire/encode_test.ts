import { equal, ok, throws } from "node:assert/strict";
import { ModuleWireError } from "../errors.ts";
import { decodeFrame } from "./decode.ts";
import { encodeFrame } from "./encode.ts";
import type { ModuleFrame } from "./frame.ts";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const invalid = (field: string) => (e: unknown) =>
  e instanceof ModuleWireError && e.code === "frame_field_invalid" &&
  e.field === field;

Deno.test("encode: round-trips every frame type through the decoder", () => {
  const frames: ModuleFrame[] = [
    { type: "hello", abi: "cortexfs.module.socket/v1", instance: "worker-1" },
    {
      type: "ready",
      metadata: { id: "m", version: "1", kind: "model", capabilities: [] },
    },
    { type: "lifecycle", request_id: "l1", operation: "shutdown" },
    {
      type: "call",
      request_id: "c1",
      method: "channel.send",
      payload: { text: "hello" },
    },
    { type: "result", request_id: "c1", payload: [1, "two", null] },
    { type: "event", name: "tick", payload: false },
    { type: "error", request_id: "c1", code: "E2BIG", message: "too big" },
  ];
  for (const frame of frames) {
    const bytes = encodeFrame(frame);
    equal(bytes[bytes.length - 1], 0x0a);
    equal(JSON.stringify(decodeFrame(bytes)), JSON.stringify(frame));
  }
});

Deno.test("encode: refuses values JSON cannot carry instead of silently changing them", () => {
  const call = (payload: unknown): ModuleFrame => ({
    type: "call",
    request_id: "r",
    method: "m",
    payload,
  });
  throws(
    () => encodeFrame(call(undefined)),
    (e) => e instanceof ModuleWireError && e.code === "frame_field_missing",
  );
  throws(() => encodeFrame(call(Number.NaN)), invalid("payload"));
  throws(() => encodeFrame(call({ when: new Date(0) })), invalid("payload"));
  throws(() => encodeFrame(call([1, undefined])), invalid("payload"));
  throws(() => encodeFrame(call(10n)), invalid("payload"));
  throws(() => encodeFrame(call("\ud800")), invalid("payload"));
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  throws(() => encodeFrame(call(cycle)), invalid("payload"));
  throws(
    () => encodeFrame({ type: "error", code: "c", message: "lone \udc00" }),
    invalid("message"),
  );
});

Deno.test("encode: an undefined object property is left out, as JSON.stringify does", () => {
  const bytes = encodeFrame({
    type: "result",
    request_id: "r",
    payload: { a: 1, b: undefined },
  });
  equal(text(bytes), '{"type":"result","request_id":"r","payload":{"a":1}}\n');
  const error = encodeFrame({
    type: "error",
    request_id: undefined,
    code: "c",
    message: "m",
  });
  equal(text(error), '{"type":"error","code":"c","message":"m"}\n');
});

Deno.test("encode: a JSON value nested 126 deep inside the frame is the most it takes", () => {
  let deep: unknown = [];
  for (let i = 1; i < 126; i++) deep = [deep];
  ok(encodeFrame({ type: "event", name: "d", payload: deep }));
  throws(
    () => encodeFrame({ type: "event", name: "d", payload: [deep] }),
    invalid("payload"),
  );
});
