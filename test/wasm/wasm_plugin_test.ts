/**
 * WASM plugins through the runtime: installed from a folder, hashed and
 * checked, each tool on the one call path, state and config shared with the
 * rest of the runtime, and bad modules refused at install with nothing left.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { entriesOf, exists, Harness } from "../support/harness.ts";

const EXAMPLES = join(import.meta.dirname!, "..", "..", "examples", "wasm");

for (const example of ["echo-c", "echo-as"]) {
  Deno.test(`wasm ${example}: tools are runtime tools on the one call path`, async () => {
    await using h = await Harness.open({ defaultTimeoutMs: 5000 });
    const { row, loadError } = await h.runtime.install(join(EXAMPLES, example));
    assert.equal(loadError, undefined);
    assert.equal(row.trust_level, "untrusted");
    assert.equal(row.status, "active");
    const name = row.name;
    const tools = h.runtime.tools(name).map((t) => t.qualifiedName);
    for (const tool of ["echo", "add", "count", "greet"]) {
      assert.ok(tools.includes(`${name}.${tool}`), tools.join());
    }

    const seen: string[] = [];
    h.events!.on("tool:post-execute", (p) => void seen.push((p as { toolName: string }).toolName));
    const echo = await h.runtime.call(`${name}.echo`, { text: "grüße, 世界" }, { caller: "agent:a1" });
    assert.equal(echo.success, true, echo.error);
    assert.equal(echo.output, "grüße, 世界");
    assert.equal((await h.runtime.call(`${name}.add`, { a: 2, b: 40 }, { caller: "person" })).output, "42");
    assert.deepEqual(seen, [`${name}.echo`, `${name}.add`]);
    const audit = h.runtime.store.audit.recent({ plugin: name });
    assert.deepEqual(audit.map((a) => [a.tool, a.caller]), [[`${name}.add`, "person"], [
      `${name}.echo`,
      "agent:a1",
    ]]);

    // Arguments are checked against the module's declared params before the Worker sees them.
    await assert.rejects(h.runtime.call(`${name}.add`, { a: "two", b: 1 }, { caller: "person" }), {
      code: "args_invalid",
    });
  });

  Deno.test(`wasm ${example}: state persists like ctx.state and config comes from the plugin's section`, async () => {
    await using h = await Harness.open({ defaultTimeoutMs: 5000 });
    const { row } = await h.runtime.install(join(EXAMPLES, example));
    const name = row.name;
    assert.equal((await h.runtime.call(`${name}.count`, {}, { caller: "person" })).output, "1");
    assert.equal((await h.runtime.call(`${name}.count`, {}, { caller: "person" })).output, "2");
    const runtime = await h.reopen();
    await runtime.load(name);
    assert.equal((await runtime.call(`${name}.count`, {}, { caller: "person" })).output, "3");
    assert.ok(Object.values(runtime.store.state.list(name)).includes("3"));
    await runtime.setConfig(name, "greeting", "Hey");
    assert.equal(
      (await runtime.call(`${name}.greet`, { name: "Ada" }, { caller: "person" })).output,
      "Hey, Ada!",
    );
  });
}

Deno.test("wasm: a module that is not WebAssembly is refused at install and nothing is left", async () => {
  await using h = await Harness.open();
  const dir = join(h.src, "not-wasm");
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(join(dir, "p.wasm"), "definitely not wasm");
  await Deno.writeTextFile(
    join(dir, "manifest.json"),
    JSON.stringify({
      name: "not-wasm",
      version: "1.0.0",
      description: "x",
      kind: "wasm",
      entryPoint: "p.wasm",
      runtime: "wasm",
      capabilities: ["tools"],
    }),
  );
  await assert.rejects(h.runtime.install(dir), { code: "not_wasm" });
  assert.deepEqual(h.runtime.plugins(), []);
  assert.equal(await exists(join(h.home, "data", "plugins", "not-wasm")), false);
  assert.deepEqual(await entriesOf(join(h.home, "data", "staging")), []);
});

Deno.test("wasm: a module changed on disk after install refuses to load", async () => {
  await using h = await Harness.open({ defaultTimeoutMs: 5000 });
  const { row } = await h.runtime.install(join(EXAMPLES, "echo-c"), { load: false });
  const file = join(h.home, "data", "plugins", row.name, "echo.wasm");
  const bytes = await Deno.readFile(file);
  bytes[bytes.length - 1] ^= 0xff;
  await Deno.writeFile(file, bytes);
  await assert.rejects(h.runtime.load(row.name), { code: "integrity_failed" });
  assert.equal(h.runtime.plugin(row.name).status, "error");
});
