import { deepEqual, equal, ok, throws } from "node:assert/strict";
import { ModuleWireError } from "../errors.ts";
import { type ByteSpec, expandBytes, expandValue, loadVectors } from "../testdata/vectors.ts";
import { decodeCanonical } from "./canonical.ts";
import { decodeFrameBody } from "./decode.ts";
import { encodeFrameText } from "./encode.ts";
import { mayHoldJsonProblem } from "./json_value.ts";
import { decodeUtf8 } from "./utf8.ts";

const body = (text: string) => text.endsWith("\n") ? text.slice(0, -1) : text;
const canonical = (text: string) => decodeCanonical(text, mayHoldJsonProblem(text));
const wireError = (code: string) => (error: unknown) =>
  error instanceof ModuleWireError && error.code === code;

Deno.test("canonical: every decode vector the shortcut takes decodes as the full decoder does, and none that fails", async () => {
  const vectors = await loadVectors<{ name: string; raw: ByteSpec; frame?: unknown; error?: string }>(
    "decode.jsonl",
  );
  let taken = 0;
  for (const vector of vectors) {
    const text = decodeUtf8(expandBytes(vector.raw));
    if (text === undefined) continue;
    const frame = canonical(body(text));
    if (frame === undefined) continue;
    taken++;
    equal(vector.error, undefined, `${vector.name}: the shortcut accepted a frame that must fail`);
    deepEqual(frame, expandValue(vector.frame), vector.name);
  }
  ok(taken > 0, "no vector took the shortcut");
});

Deno.test("canonical: what the encoder writes takes the shortcut and comes back the same", () => {
  const frames = [
    { type: "call", request_id: "h1000000001", method: "tool.echo-v2_x", payload: { a: [1, "é", null] } },
    { type: "result", request_id: "m1000000001", payload: null },
    { type: "result", request_id: "x", payload: 'text with \\u and " and \n inside' },
  ] as const;
  for (const frame of frames) {
    const text = body(encodeFrameText(frame));
    deepEqual(canonical(text), frame, text);
  }
});

Deno.test("canonical: anything but the exact envelope and one JSON payload is left to the full decoder", () => {
  const cases: [string, unknown][] = [
    // Duplicate payload: the last one wins in the full decoder.
    ['{"type":"result","request_id":"h1","payload":{"a":1},"payload":2}', 2],
    // An unknown field after the payload is dropped by the full decoder.
    ['{"type":"result","request_id":"h1","payload":1,"extra":true}', 1],
    // Whitespace between tokens.
    ['{ "type": "result", "request_id": "h1", "payload": 1 }', 1],
    // Another field order.
    ['{"request_id":"h1","type":"result","payload":1}', 1],
  ];
  for (const [text, payload] of cases) {
    equal(canonical(text), undefined, text);
    deepEqual(decodeFrameBody(text), { type: "result", request_id: "h1", payload }, text);
  }
  const failing: [string, string][] = [
    ['{"type":"result","request_id":"h1","payload":1},"x":2}', "frame_not_json"],
    ['{"type":"result","request_id":"h1","payload":}', "frame_not_json"],
    ['{"type":"result","request_id":"h 1","payload":1}', "frame_field_invalid"],
    [`{"type":"result","request_id":"${"x".repeat(65)}","payload":1}`, "frame_field_invalid"],
    ['{"type":"call","request_id":"h1","method":"a/b","payload":1}', "frame_field_invalid"],
    ['{"type":"call","request_id":"h1","method":"","payload":1}', "frame_field_invalid"],
    ['{"type":"result","request_id":"h1","payload":1e999}', "frame_not_json"],
    ['{"type":"result","request_id":"h1","payload":"\\ud800"}', "frame_not_json"],
    [`{"type":"result","request_id":"h1","payload":${"[".repeat(127)}${"]".repeat(127)}}`, "frame_not_json"],
  ];
  for (const [text, code] of failing) {
    equal(canonical(text), undefined, text);
    throws(() => decodeFrameBody(text), wireError(code), text);
  }
});

Deno.test("canonical: the longest name and the deepest payload the rules allow still take the shortcut", () => {
  const id = "x".repeat(64);
  const nested = `${"[".repeat(126)}${"]".repeat(126)}`;
  const text = `{"type":"result","request_id":"${id}","payload":${nested}}`;
  const frame = canonical(text);
  ok(frame !== undefined);
  deepEqual(frame, decodeFrameBody(text));
});
