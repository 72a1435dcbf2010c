import { equal } from "node:assert/strict";
import { holdsProblemPattern, lineMayHoldJsonProblem, mayHoldJsonProblem } from "./json_value.ts";

Deno.test("json pattern: a chunk without the pattern clears each short line; with it, each line is tested", () => {
  const clean = '{"a":1.5e10,"b":"\\u0041"}\n{"c":"e123"}\n';
  equal(holdsProblemPattern(clean), false);
  for (const line of clean.split("\n").filter(Boolean)) {
    equal(lineMayHoldJsonProblem(line, false), mayHoldJsonProblem(line), line);
  }
  for (const risky of ['{"a":1e308}', '{"a":2E-999}', '{"a":"\\uD800"}', '{"a":"\\udc00"}']) {
    equal(holdsProblemPattern(`{"ok":1}\n${risky}\n`), true, risky);
    equal(lineMayHoldJsonProblem(risky, true), true, risky);
    equal(lineMayHoldJsonProblem('{"ok":1}', true), false);
  }
  equal(lineMayHoldJsonProblem(`{"a":"${"x".repeat(300)}"}`, false), true);
});
