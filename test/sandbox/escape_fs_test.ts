/**
 * Hostile plugins against the file system: an untrusted plugin reads its own
 * code and nothing else of the host's, and writes nothing without fs:write.
 * Every attempt must fail with Deno's permission error, and the bystander
 * plugin must still answer afterwards.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { assertDenied, openSandbox, type SandboxHarness } from "./sandbox_harness.ts";

/** Puts the host's secrets where a plugin would look for them. */
async function plantSecrets(h: SandboxHarness): Promise<void> {
  await h.runtime.setConfig("echo", "apiKey", "s3cret");
  await Deno.writeTextFile(join(h.home, "daemon.token"), "token");
  await Deno.writeTextFile(join(h.home, "trusted_keys.json"), "{}");
  await Deno.writeTextFile(join(h.home, "data", "plugin-data", "echo", "secret.txt"), "echo's data");
}

const cases: { name: string; what: string; target: (h: SandboxHarness) => string }[] = [
  { name: "read /etc/passwd", what: "read", target: () => "/etc/passwd" },
  { name: "read the runtime's database", what: "read", target: (h) => join(h.home, "data", "cortex.db") },
  { name: "read the runtime's config.json", what: "read", target: (h) => join(h.home, "config.json") },
  { name: "read the daemon's token", what: "read", target: (h) => join(h.home, "daemon.token") },
  { name: "read the trusted keys", what: "read", target: (h) => join(h.home, "trusted_keys.json") },
  {
    name: "read another plugin's data",
    what: "read",
    target: (h) => join(h.home, "data", "plugin-data", "echo", "secret.txt"),
  },
  {
    name: "read another plugin's code",
    what: "read",
    target: (h) => join(h.home, "data", "plugins", "echo", "mod.ts"),
  },
  { name: "list the runtime's home", what: "readDir", target: (h) => h.home },
  { name: "stat the database", what: "stat", target: (h) => join(h.home, "data", "cortex.db") },
  { name: "import /etc/passwd as a module", what: "import", target: () => "file:///etc/passwd" },
  { name: "write outside any data folder", what: "write", target: (h) => join(h.home, "planted.txt") },
  { name: "overwrite the runtime's config.json", what: "write", target: (h) => join(h.home, "config.json") },
  {
    name: "write its own data folder without fs:write",
    what: "write",
    target: (h) => join(h.home, "data", "plugin-data", "snoop", "x.txt"),
  },
  {
    name: "write another plugin's data folder",
    what: "write",
    target: (h) => join(h.home, "data", "plugin-data", "echo", "secret.txt"),
  },
  { name: "delete the database", what: "remove", target: (h) => join(h.home, "data", "cortex.db") },
];

for (const c of cases) {
  Deno.test(`sandbox fs: an untrusted plugin cannot ${c.name}`, async () => {
    await using h = await openSandbox();
    await plantSecrets(h);
    const snoop = await h.install("snoop");
    assert.equal(snoop.loadError, undefined);
    assertDenied(await h.call("snoop.attempt", { what: c.what, target: c.target(h) }));
    await h.assertEchoAnswers();
    assert.equal(
      await Deno.readTextFile(join(h.home, "data", "plugin-data", "echo", "secret.txt")),
      "echo's data",
    );
    assert.equal(await h.runtime.getConfig("echo", "apiKey"), "s3cret");
  });
}
