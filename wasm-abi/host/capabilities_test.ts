import { deepEqual, throws } from "node:assert/strict";
import type { CortexError } from "../../runtime/errors.ts";
import { parseCapabilities } from "./capabilities.ts";

Deno.test("capabilities become tool declarations with a JSON Schema", () => {
  const [tool] = parseCapabilities(JSON.stringify({
    abi_version: 1,
    tools: [{
      name: "search",
      description: "Finds things",
      params: [
        { name: "query", type: "string", description: "What", required: true },
        { name: "mode", type: "string", description: "How", enum: ["fast", "exact"] },
      ],
    }],
  }));
  deepEqual(tool.inputSchema, {
    type: "object",
    properties: {
      query: { type: "string", description: "What" },
      mode: { type: "string", description: "How", enum: ["fast", "exact"] },
    },
    required: ["query"],
  });
  deepEqual(tool.params[1].required, false);
});

Deno.test("capabilities with a bad shape name the field", () => {
  const code = (expected: string) => (e: CortexError) => e.code === expected;
  throws(() => parseCapabilities('{"abi_version":2,"tools":[{"name":"a"}]}'), code("bad_capabilities"));
  throws(() => parseCapabilities('{"tools":[{"name":"a b"}]}'), code("bad_capabilities"));
  throws(() => parseCapabilities('{"tools":[{"name":"a"},{"name":"a"}]}'), code("bad_capabilities"));
  throws(
    () => parseCapabilities('{"tools":[{"name":"a","params":[{"name":"x","type":"date"}]}]}'),
    code("bad_capabilities"),
  );
});
