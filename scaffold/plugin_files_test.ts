import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { pluginFiles, type PluginFilesOptions } from "./plugin_files.ts";

const CHECKOUT_URL = new URL("../", import.meta.url).href;
const CHECKOUT = fileURLToPath(CHECKOUT_URL);

const CASES = [
  { kind: "esm", lang: undefined, entry: "mod.ts", test: "mod_test.ts", kit: null },
  {
    kind: "wasm",
    lang: "c",
    entry: "plugin.wasm",
    test: "plugin_test.ts",
    kit: { from: "wasm-abi/c/", to: "" },
  },
  {
    kind: "wasm",
    lang: "assemblyscript",
    entry: "plugin.wasm",
    test: "plugin_test.ts",
    kit: { from: "wasm-abi/assemblyscript/assembly/", to: "assembly/cortex/" },
  },
] as const;

for (const { kind, lang, entry, test, kit } of CASES) {
  Deno.test(`pluginFiles (${kind} ${lang ?? ""}): templates filled in, kit copied as it is`, async () => {
    const files = await pluginFiles("my-plugin", { kind, lang, dir: "/somewhere/my-plugin" });
    const byPath = new Map(files.map((f) => [f.path, f.content]));
    const manifest = JSON.parse(byPath.get("manifest.json")!);
    assert.deepEqual([manifest.name, manifest.kind, manifest.entryPoint], ["my-plugin", kind, entry]);
    for (const { path, content } of files) assert.ok(!content.includes("{{"), `${path} has a placeholder`);
    assert.ok(byPath.get(test)!.includes(`from "${CHECKOUT_URL}`), "the test imports this checkout");
    assert.ok(byPath.get("README.md")!.includes("/somewhere/my-plugin"));
    if (kit) {
      for await (const { name } of Deno.readDir(`${CHECKOUT}${kit.from}`)) {
        const copy = byPath.get(`${kit.to}${name}`);
        assert.equal(copy, await Deno.readTextFile(`${CHECKOUT}${kit.from}${name}`), `${kit.to}${name}`);
      }
    }
  });
}

Deno.test("pluginFiles refuses an unknown kind or language, and a language for esm", async () => {
  const cases = [["rust"], ["wasm", "zig"], ["esm", "c"], ["constructor"]];
  for (const [kind, lang] of cases) {
    const options = { kind, lang, dir: "/x" } as PluginFilesOptions;
    await assert.rejects(pluginFiles("x", options), { code: "usage" }, `${kind} ${lang}`);
  }
});
