/**
 * `cortex plugins new`: each kind of plugin is generated into a temporary
 * folder, passes its own test as generated (run as a subprocess with this
 * checkout's config, as its README says), fails it once broken, and installs
 * and runs through the runtime. Bad names and existing folders write nothing.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultLoaders } from "../../loaders/mod.ts";
import { EventBus } from "../../runtime/event_bus.ts";
import { Runtime } from "../../runtime/runtime.ts";
import { main } from "../main.ts";
import type { Io } from "../output.ts";

const CONFIG = fileURLToPath(new URL("../../deno.json", import.meta.url));

interface Captured {
  code: number;
  out: string;
  err: string;
}

/** Runs `cortex plugins new ...` in process. */
async function cortexNew(...args: string[]): Promise<Captured> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (l) => void out.push(l), err: (l) => void err.push(l), confirm: () => false };
  const code = await main(["plugins", "new", ...args], io);
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/** Runs the generated plugin's own test the way its README says, from the plugin's folder. */
async function runGeneratedTest(dir: string, file: string): Promise<{ success: boolean; output: string }> {
  const result = await new Deno.Command(Deno.execPath(), {
    args: ["test", "-A", "--unstable-worker-options", "--config", CONFIG, file],
    cwd: dir,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { success: result.success, output: decoder.decode(result.stdout) + decoder.decode(result.stderr) };
}

/** Whether the generated files are formatted and lint-clean under this checkout's settings. */
async function fmtAndLint(dir: string): Promise<string[]> {
  const failures: string[] = [];
  for (const args of [["fmt", "--check"], ["lint"]]) {
    const result = await new Deno.Command(Deno.execPath(), {
      args: [...args, "--config", CONFIG, dir],
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!result.success) failures.push(`deno ${args[0]}: ${new TextDecoder().decode(result.stderr)}`);
  }
  return failures;
}

async function withTempDir(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "cortex-new-" });
  try {
    await run(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function withRuntime(run: (runtime: Runtime) => Promise<void>): Promise<void> {
  await withTempDir(async (home) => {
    const runtime = await Runtime.open({
      home,
      loaders: defaultLoaders({ home }),
      events: new EventBus(),
      defaultTimeoutMs: 5000,
    });
    try {
      await run(runtime);
    } finally {
      await runtime.close();
    }
  });
}

const KINDS = [
  {
    label: "esm",
    flags: [],
    test: "mod_test.ts",
    files: ["README.md", "manifest.json", "mod.ts", "mod_test.ts"],
    // Breaks the tool's output, which the generated test checks.
    breakIt: { file: "mod.ts", from: "(greeting ${count})", to: "(greeting #${count})" },
  },
  {
    label: "wasm + c",
    flags: ["--kind", "wasm", "--lang", "c"],
    test: "plugin_test.ts",
    files: [
      "README.md",
      "build.ts",
      "cortex_json.h",
      "cortex_plugin.h",
      "manifest.json",
      "plugin.c",
      "plugin_test.ts",
    ],
    // Breaks echo: it returns nothing and succeeds.
    breakIt: { file: "plugin.c", from: "*outLenPtr = len;", to: "*outLenPtr = 0;" },
  },
  {
    label: "wasm + assemblyscript",
    flags: ["--lang", "assemblyscript"],
    test: "plugin_test.ts",
    files: [
      "README.md",
      "assembly/cortex/abi.ts",
      "assembly/cortex/env.ts",
      "assembly/cortex/host.ts",
      "assembly/cortex/index.ts",
      "assembly/cortex/json.ts",
      "assembly/cortex/tools.ts",
      "assembly/index.ts",
      "build.ts",
      "manifest.json",
      "plugin_test.ts",
    ],
    // Breaks the manifest: it no longer matches the tools the module declares.
    breakIt: { file: "manifest.json", from: "Returns the text it is given", to: "Returns text" },
  },
];

for (const kind of KINDS) {
  Deno.test(`plugins new (${kind.label}): passes its own test as generated, then installs and runs`, async () => {
    await withTempDir(async (parent) => {
      const name = `my-${kind.label.replaceAll(/[^a-z]+/g, "-")}-plugin`;
      const created = await cortexNew(name, ...kind.flags, "--dir", parent, "--json");
      assert.equal(created.code, 0, created.out + created.err);
      const doc = JSON.parse(created.out).created;
      const dir = join(parent, name);
      assert.equal(doc.dir, dir);
      assert.deepEqual([...doc.files].sort(), kind.files);

      const own = await runGeneratedTest(dir, kind.test);
      assert.ok(own.success, `the generated ${kind.test} failed:\n${own.output}`);
      assert.match(own.output, / 0 failed/);

      await withRuntime(async (runtime) => {
        if (kind.label === "esm") {
          const { row, loadError } = await runtime.install(dir, { trust: "trusted" });
          assert.equal(loadError, undefined);
          assert.equal(row.status, "active");
          const result = await runtime.call(`${name}.greet`, { name: "Ada" }, { caller: "person" });
          assert.equal(result.output, "Hello, Ada! (greeting 1)", result.error);
        } else {
          // The generated test built plugin.wasm, the manifest's entry point; WASM installs untrusted.
          const { row, loadError } = await runtime.install(dir);
          assert.equal(loadError, undefined);
          assert.deepEqual([row.status, row.trust_level], ["active", "untrusted"]);
          const echo = await runtime.call(`${name}.echo`, { text: "grüße" }, { caller: "person" });
          assert.equal(echo.output, "grüße", echo.error);
          assert.equal((await runtime.call(`${name}.count`, {}, { caller: "person" })).output, "1");
          assert.equal((await runtime.call(`${name}.count`, {}, { caller: "person" })).output, "2");
        }
      });

      // The generated test is a real one: broken, the plugin fails it.
      const path = join(dir, kind.breakIt.file);
      const source = await Deno.readTextFile(path);
      assert.ok(source.includes(kind.breakIt.from), `${kind.breakIt.file} no longer holds the text to break`);
      await Deno.writeTextFile(path, source.replace(kind.breakIt.from, kind.breakIt.to));
      const broken = await runGeneratedTest(dir, kind.test);
      assert.equal(
        broken.success,
        false,
        `the generated ${kind.test} passed a broken plugin:\n${broken.output}`,
      );
      assert.match(broken.output, /FAILED/);
    });
  });
}

Deno.test("plugins new: the files are formatted and lint-clean, whatever the name's length", async () => {
  await withTempDir(async (parent) => {
    for (const [i, kind] of KINDS.entries()) {
      for (const name of ["a", `${"long-".repeat(12)}name`]) {
        const run = await cortexNew(name, ...kind.flags, "--dir", join(parent, String(i)));
        assert.equal(run.code, 0, run.err);
      }
    }
    assert.deepEqual(await fmtAndLint(parent), []);
  });
});

Deno.test("plugins new: a name that is not kebab-case is a usage error (exit 2) and writes nothing", async () => {
  await withTempDir(async (parent) => {
    for (const name of ["MyPlugin", "my_plugin", "my--plugin", "-my-plugin", "../escape", "a".repeat(65)]) {
      const run = await cortexNew(name, "--dir", parent, "--json");
      assert.equal(run.code, 2, name);
      assert.equal(JSON.parse(run.out).error.code, "usage", name);
    }
    const text = await cortexNew("Bad Name", "--dir", parent);
    assert.equal(text.code, 2);
    assert.match(text.err, /kebab-case/);
    assert.match(text.err, /usage: cortex plugins new <name>/);
    assert.deepEqual(await Array.fromAsync(Deno.readDir(parent)), []);
  });
});

Deno.test("plugins new: bad --kind, --lang with esm, a missing name and extra arguments are usage errors", async () => {
  await withTempDir(async (parent) => {
    const cases = [
      ["x", "--kind", "rust"],
      ["x", "--lang", "zig"],
      ["x", "--kind", "esm", "--lang", "c"],
      [],
      ["x", "y"],
    ];
    for (const args of cases) {
      const run = await cortexNew(...args, "--dir", parent, "--json");
      assert.equal(run.code, 2, args.join(" "));
      assert.equal(JSON.parse(run.out).error.code, "usage", args.join(" "));
    }
    assert.deepEqual(await Array.fromAsync(Deno.readDir(parent)), []);
  });
});

Deno.test("plugins new: an existing folder is refused (exit 1, scaffold_exists) and left as it was", async () => {
  await withTempDir(async (parent) => {
    const dir = join(parent, "taken");
    await Deno.mkdir(dir);
    await Deno.writeTextFile(join(dir, "manifest.json"), "mine");
    for (const flags of [[], ["--kind", "wasm"], ["--lang", "assemblyscript"]]) {
      const run = await cortexNew("taken", ...flags, "--dir", parent, "--json");
      assert.equal(run.code, 1);
      assert.equal(JSON.parse(run.out).error.code, "scaffold_exists");
    }
    assert.deepEqual(await Array.fromAsync(Deno.readDir(dir), (e) => e.name), ["manifest.json"]);
    assert.equal(await Deno.readTextFile(join(dir, "manifest.json")), "mine");

    // A plain file in the way is refused the same way.
    await Deno.writeTextFile(join(parent, "file"), "mine");
    const run = await cortexNew("file", "--dir", parent);
    assert.equal(run.code, 1);
    assert.match(run.err, /already exists.*\(scaffold_exists\)/);
    assert.equal(await Deno.readTextFile(join(parent, "file")), "mine");
  });
});

Deno.test("plugins new: prints the folder, its files and how to run its test", async () => {
  await withTempDir(async (parent) => {
    const run = await cortexNew("text-out", "--dir", join(parent, "nested", "folder"));
    assert.equal(run.code, 0, run.err);
    const dir = join(parent, "nested", "folder", "text-out");
    assert.match(run.out, new RegExp(`^created ${dir} \\(esm\\)\n  manifest.json\n`));
    assert.ok(run.out.includes(`deno test -A --unstable-worker-options --config ${CONFIG} mod_test.ts`));
    assert.equal(JSON.parse(await Deno.readTextFile(join(dir, "manifest.json"))).name, "text-out");
  });
});
