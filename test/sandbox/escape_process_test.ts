/**
 * Hostile plugins against the process: no subprocess, environment, FFI or
 * system information for a plugin that was not granted them, and no nested
 * Worker with more than its own permissions.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { assertDenied, openSandbox, type SandboxHarness } from "./sandbox_harness.ts";

const cases: { name: string; what: string; target: (h: SandboxHarness) => string; pattern?: RegExp }[] = [
  { name: "run a shell with Deno.Command", what: "run", target: () => "sh" },
  { name: "run the deno binary", what: "run", target: () => Deno.execPath() },
  { name: "read an environment variable", what: "env", target: () => "HOME" },
  { name: "read the whole environment", what: "env", target: () => "" },
  { name: "open a native library with FFI", what: "ffi", target: () => "libc.so.6" },
  { name: "read system information", what: "sys", target: () => "" },
  {
    name: "start a nested Worker with more permissions",
    what: "worker",
    target: (h) => pathToFileURL(join(h.home, "data", "plugins", "snoop", "attempts.ts")).href,
    pattern: /NotCapable|escalate/,
  },
];

for (const c of cases) {
  Deno.test(`sandbox process: an untrusted plugin cannot ${c.name}`, async () => {
    await using h = await openSandbox();
    const snoop = await h.install("snoop");
    assert.equal(snoop.loadError, undefined);
    assertDenied(await h.call("snoop.attempt", { what: c.what, target: c.target(h) }), c.pattern);
    await h.assertEchoAnswers();
  });
}
