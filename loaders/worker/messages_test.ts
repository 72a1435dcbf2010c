import assert from "node:assert/strict";
import { cellMessageSchema, parseLine, processFrameSchema } from "./messages.ts";

Deno.test("cell messages: exact shapes only; an extra key such as another plugin's name is refused", () => {
  assert.ok(cellMessageSchema.safeParse({ t: "reply", id: 3, ok: true, value: { any: "thing" } }).success);
  assert.ok(cellMessageSchema.safeParse({ t: "log", level: "info", msg: "hi" }).success);
  for (
    const bad of [
      { t: "reply", id: 3, ok: true, value: 1, plugin: "echo" },
      { t: "reply", id: -1, ok: true },
      { t: "log", level: "fatal", msg: "x" },
      { t: "req", id: 1, op: "store.drop" },
      { t: "from", cell: 1, m: {} },
      "text",
      null,
    ]
  ) assert.equal(cellMessageSchema.safeParse(bad).success, false, JSON.stringify(bad));
});

Deno.test("process frames: only the frames of the protocol", () => {
  assert.ok(processFrameSchema.safeParse({ t: "flood", cell: 1 }).success);
  assert.equal(processFrameSchema.safeParse({ t: "spawn", cell: 1 }).success, false);
});

Deno.test("parseLine drops __proto__ keys so no copy can turn them into a prototype", () => {
  const value = parseLine('{"a":1,"__proto__":{"polluted":true},"b":{"__proto__":{"x":1}}}') as Record<
    string,
    unknown
  >;
  assert.deepEqual(Object.keys(value), ["a", "b"]);
  assert.equal(Object.hasOwn(value, "__proto__"), false);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});
