import assert from "node:assert/strict";
import { join } from "node:path";
import { entriesOf, Harness, manifestFor, refusal as codeOf } from "../test/support/harness.ts";
import { readManifest, resolveEntryFile } from "./read_manifest.ts";

async function tempFolder(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "cortex-manifest-" });
}

Deno.test("readManifest: reads manifest.json and reports where it came from", async () => {
  const dir = await tempFolder();
  try {
    await Deno.writeTextFile(join(dir, "manifest.json"), JSON.stringify(manifestFor("first-choice")));
    await Deno.writeTextFile(join(dir, "cortex.json"), JSON.stringify(manifestFor("second-choice")));
    const file = await readManifest(dir);
    assert.equal(file.manifest.name, "first-choice");
    assert.equal(file.path, join(await Deno.realPath(dir), "manifest.json"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readManifest: falls back to cortex.json", async () => {
  const dir = await tempFolder();
  try {
    await Deno.writeTextFile(join(dir, "cortex.json"), JSON.stringify(manifestFor("fallback-only")));
    const file = await readManifest(dir);
    assert.equal(file.manifest.name, "fallback-only");
    assert.match(file.path, /cortex\.json$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readManifest: a folder without a manifest is manifest_missing", async () => {
  const dir = await tempFolder();
  try {
    const e = await codeOf(readManifest(dir));
    assert.equal(e.code, "manifest_missing");
    assert.match(e.message, /manifest\.json or cortex\.json/);
    const gone = await codeOf(readManifest(join(dir, "no-such-folder")));
    assert.equal(gone.code, "manifest_missing");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readManifest: a broken manifest.json is named in the error (no silent fallback)", async () => {
  const dir = await tempFolder();
  try {
    await Deno.writeTextFile(join(dir, "manifest.json"), "{ not json");
    await Deno.writeTextFile(join(dir, "cortex.json"), JSON.stringify(manifestFor("would-hide-it")));
    const e = await codeOf(readManifest(dir));
    assert.equal(e.code, "manifest_not_json");
    assert.match(e.message, /manifest\.json/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("resolveEntryFile: an entry inside the folder resolves, nested or with ./", async () => {
  const dir = await tempFolder();
  try {
    await Deno.mkdir(join(dir, "lib"));
    await Deno.writeTextFile(join(dir, "lib", "mod.ts"), "export {};");
    await Deno.writeTextFile(join(dir, "mod.ts"), "export {};");
    const real = await Deno.realPath(dir);
    assert.equal(await resolveEntryFile(dir, "lib/mod.ts"), join(real, "lib", "mod.ts"));
    assert.equal(await resolveEntryFile(dir, "./mod.ts"), join(real, "mod.ts"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("resolveEntryFile: entries outside the folder are entry_outside", async () => {
  const root = await tempFolder();
  try {
    const dir = join(root, "plugin");
    await Deno.mkdir(dir);
    await Deno.writeTextFile(join(root, "x.ts"), "export {};");
    await Deno.symlink(join(root, "x.ts"), join(dir, "link.ts"));
    for (const entry of ["../x.ts", join(root, "x.ts"), "/etc/hosts", "link.ts", "lib/../../x.ts"]) {
      const e = await codeOf(resolveEntryFile(dir, entry));
      assert.equal(e.code, "entry_outside", `${entry}: ${e.message}`);
      assert.match(e.message, /outside the plugin folder/);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("resolveEntryFile: a missing entry, or a folder, is entry_missing", async () => {
  const dir = await tempFolder();
  try {
    await Deno.mkdir(join(dir, "lib"));
    assert.equal((await codeOf(resolveEntryFile(dir, "mod.ts"))).code, "entry_missing");
    assert.equal((await codeOf(resolveEntryFile(dir, "lib"))).code, "entry_missing");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("install: a bad manifest or entry point is refused and leaves nothing installed", async () => {
  await using h = await Harness.open();
  const outside = join(h.root, "outside.ts");
  await Deno.writeTextFile(outside, "export const tools = [];");
  const cases: { folder: string; manifest: Record<string, unknown>; code: string; link?: boolean }[] = [
    {
      folder: "dotdot",
      manifest: manifestFor("dotdot", { entryPoint: "../outside.ts" }),
      code: "entry_outside",
    },
    { folder: "absolute", manifest: manifestFor("absolute", { entryPoint: outside }), code: "entry_outside" },
    {
      folder: "symlinked",
      manifest: manifestFor("symlinked", { entryPoint: "link.ts" }),
      code: "entry_outside",
      link: true,
    },
    { folder: "absent", manifest: manifestFor("absent", { entryPoint: "nope.ts" }), code: "entry_missing" },
    { folder: "escape", manifest: manifestFor("../escape"), code: "manifest_invalid" },
    { folder: "mismatch", manifest: manifestFor("mismatch", { runtime: "wasm" }), code: "manifest_invalid" },
    {
      folder: "remote",
      manifest: manifestFor("remote", { entryPoint: "https://example.com/mod.ts" }),
      code: "manifest_invalid",
    },
  ];
  for (const c of cases) {
    const dir = await h.plugin(c.manifest, "export const tools = [];", { folder: c.folder });
    if (c.link) await Deno.symlink(outside, join(dir, "link.ts"));
    const e = await codeOf(h.runtime.install(dir, { trust: "trusted" }));
    assert.equal(e.code, c.code, `${c.folder}: ${e.message}`);
  }
  assert.deepEqual(h.runtime.plugins(), []);
  assert.deepEqual(await entriesOf(join(h.home, "data", "plugins")), []);
  assert.deepEqual(await entriesOf(join(h.home, "data", "staging")), []);
});

Deno.test("install: a symbolic link anywhere in the plugin folder is refused", async () => {
  await using h = await Harness.open();
  const dir = await h.plugin(manifestFor("has-link"), "export const tools = [];");
  await Deno.symlink("/etc/hosts", join(dir, "hosts"));
  const e = await codeOf(h.runtime.install(dir, { trust: "trusted" }));
  assert.equal(e.code, "manifest_invalid");
  assert.match(e.message, /symbolic link \(hosts\)/);
  assert.deepEqual(h.runtime.plugins(), []);
});

Deno.test("install: a plugin with only cortex.json installs, and keeps extra keys", async () => {
  await using h = await Harness.open();
  const dir = await h.plugin(
    manifestFor("only-cortex-json", { aiDisclosure: { humanReview: true } }),
    "export const tools = [];",
    { manifestFile: "cortex.json" },
  );
  const { row, loadError } = await h.runtime.install(dir, { trust: "trusted" });
  assert.equal(loadError, undefined);
  assert.equal(row.status, "active");
  assert.deepEqual((h.runtime.manifest("only-cortex-json") as Record<string, unknown>).aiDisclosure, {
    humanReview: true,
  });
});
