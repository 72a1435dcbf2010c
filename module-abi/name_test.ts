import { equal } from "node:assert/strict";
import { isValidName, NAME_MAX_BYTES } from "./name.ts";

Deno.test("name rule accepts ASCII letters, digits, dot, dash and underscore", () => {
  for (
    const name of [
      "a",
      "channel.example",
      "worker-1",
      "E2BIG",
      "a_b.c-d",
      "x".repeat(64),
    ]
  ) {
    equal(isValidName(name), true, name);
  }
});

Deno.test("name rule rejects empty, long, non-ASCII and other characters", () => {
  const bad = [
    "",
    "x".repeat(NAME_MAX_BYTES + 1),
    "bad/id",
    "a b",
    "é",
    "a\n",
    "a:b",
    "a\0",
  ];
  for (const name of bad) equal(isValidName(name), false, JSON.stringify(name));
  equal(isValidName(42), false);
  equal(isValidName(null), false);
});
