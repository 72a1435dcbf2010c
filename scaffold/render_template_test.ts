import assert from "node:assert/strict";
import { renderTemplate } from "./render_template.ts";

Deno.test("renderTemplate fills every placeholder, as often as it appears", () => {
  const text = renderTemplate('# {{name}}\nimport from "{{cortex}}mod.ts"; {{name}}', {
    name: "my-plugin",
    cortex: "file:///repo/",
  });
  assert.equal(text, '# my-plugin\nimport from "file:///repo/mod.ts"; my-plugin');
});

Deno.test("renderTemplate leaves text that only looks like a placeholder, and JSON braces, alone", () => {
  assert.equal(renderTemplate('{"a":{"b":1}} { {x} } {{ x }}', {}), '{"a":{"b":1}} { {x} } {{ x }}');
});

Deno.test("renderTemplate refuses a placeholder that has no value, naming it and the known ones", () => {
  assert.throws(
    () => renderTemplate("{{name}} {{nmae}}", { name: "x" }),
    (error: Error & { code?: string }) => {
      assert.equal(error.code, "scaffold_template");
      assert.match(error.message, /\{\{nmae\}\}.*\{\{name\}\}/);
      return true;
    },
  );
});
