import { deepEqual, equal, throws } from "node:assert/strict";
import { CortexError } from "../runtime/errors.ts";
import { findMetadataProblem, isValidMetadata, MODULE_API_ID, validateMetadata } from "./metadata.ts";

const good = {
  id: "channel.example",
  version: "1.0.0",
  kind: "channel",
  capabilities: [{ name: "text", description: "send and receive text" }],
};

Deno.test("metadata: the static identifier is cortexfs.module/v1", () => {
  equal(MODULE_API_ID, "cortexfs.module/v1");
});

Deno.test("metadata: valid metadata passes, empty capabilities and descriptions are allowed", () => {
  equal(isValidMetadata(good), true);
  equal(isValidMetadata({ ...good, capabilities: [] }), true);
  equal(
    isValidMetadata({
      ...good,
      capabilities: [{ name: "x", description: "" }],
    }),
    true,
  );
});

Deno.test("metadata: each broken field is named", () => {
  const cases: [unknown, string, string][] = [
    [{ ...good, id: "bad/id" }, "id", "invalid"],
    [{ ...good, version: "  \t" }, "version", "invalid"],
    [{ ...good, version: "\u3000" }, "version", "invalid"],
    [{ ...good, kind: "Tool" }, "kind", "invalid"],
    [
      { ...good, capabilities: [{ name: "a b", description: "" }] },
      "capabilities.0.name",
      "invalid",
    ],
    [
      { ...good, capabilities: [{ name: "a", description: "x\0" }] },
      "capabilities.0.description",
      "invalid",
    ],
    [
      { ...good, capabilities: [{ name: "a" }] },
      "capabilities.0.description",
      "missing",
    ],
    [{ id: "a", version: "1", kind: "tool" }, "capabilities", "missing"],
    ["not an object", "", "invalid"],
  ];
  for (const [value, field, problem] of cases) {
    deepEqual(
      findMetadataProblem(value),
      { field, problem },
      JSON.stringify(value),
    );
  }
});

Deno.test("metadata: a byte-order mark is not blank, matching Rust's trim", () => {
  equal(isValidMetadata({ ...good, version: "\uFEFF" }), true);
});

Deno.test("metadata: validateMetadata returns a frozen copy without unknown fields", () => {
  const meta = validateMetadata({ ...good, extra: 1 });
  deepEqual(meta, good);
  equal(Object.isFrozen(meta), true);
  equal(Object.isFrozen(meta.capabilities[0]), true);
  throws(
    () => validateMetadata({ ...good, id: "" }),
    (e: unknown) => e instanceof CortexError && e.code === "invalid_metadata",
  );
});
