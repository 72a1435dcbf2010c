import { equal } from "node:assert/strict";
import { MODULE_OPERATIONS, type ModuleState, nextState } from "./lifecycle.ts";

const ORDER: ModuleState[] = [
  "registered",
  "initialized",
  "running",
  "stopped",
  "shutdown",
];

Deno.test("lifecycle: each operation moves exactly one step forward", () => {
  for (const [i, operation] of MODULE_OPERATIONS.entries()) {
    for (const state of ORDER) {
      const expected = state === ORDER[i] ? ORDER[i + 1] : undefined;
      equal(
        nextState(state, operation),
        expected,
        `${operation} from ${state}`,
      );
    }
  }
});

Deno.test("lifecycle: nothing leaves shutdown", () => {
  for (const operation of MODULE_OPERATIONS) {
    equal(nextState("shutdown", operation), undefined);
  }
});
