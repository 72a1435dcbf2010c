import assert from "node:assert/strict";
import { checkPluginName } from "./plugin_name.ts";

Deno.test("checkPluginName accepts kebab-case names of 1 to 64 characters", () => {
  for (const name of ["a", "my-plugin", "p2p-sync", "x".repeat(64)]) checkPluginName(name);
});

Deno.test("checkPluginName refuses anything else as a usage error that shows the name", () => {
  const bad = [
    "",
    "MyPlugin",
    "my_plugin",
    "my--plugin",
    "-my",
    "my-",
    "my plugin",
    "../x",
    "x/y",
    "x".repeat(65),
  ];
  for (const name of bad) {
    assert.throws(() => checkPluginName(name), (error: Error & { code?: string }) => {
      assert.equal(error.code, "usage", name);
      assert.ok(
        error.message.includes(name.length > 64 ? "64 characters" : JSON.stringify(name)),
        error.message,
      );
      return true;
    });
  }
});
