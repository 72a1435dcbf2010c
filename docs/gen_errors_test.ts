import assert from "node:assert/strict";
import { errorsDocument } from "./gen_errors.ts";

Deno.test("docs/errors.md lists every error code the code defines (run docs/gen_errors.ts to refresh)", async () => {
  const current = await Deno.readTextFile(new URL("./errors.md", import.meta.url));
  assert.equal(current, errorsDocument());
});
