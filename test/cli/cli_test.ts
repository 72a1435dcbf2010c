/**
 * The real `cortex` command, run as a subprocess on a temporary home
 * (CORTEX_HOME): the JSON documents of every verb, exit codes 0 / 1 / 2, and
 * errors as `{ "error": { "code", "message" } }`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Runtime } from "../../runtime/runtime.ts";
import { FIXTURES_DIR, manifestFor } from "../support/harness.ts";

const REPO = join(import.meta.dirname!, "..", "..");
const CLI = join(REPO, "cli", "main.ts");
const RECORDER = join(FIXTURES_DIR, "hook-recorder");
const LEDGER = join(FIXTURES_DIR, "cortex-plugin-ledger-watch");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `cortex <args>` with stdin closed (no TTY), as a script or CI would. */
async function cortex(home: string, ...args: string[]): Promise<Run> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--unstable-worker-options", "-A", CLI, ...args],
    cwd: REPO,
    env: { CORTEX_HOME: home, NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/** Runs with `--json`, checks the exit code, and parses stdout as one JSON document. */
async function json(home: string, expectedCode: number, ...args: string[]): Promise<Record<string, unknown>> {
  const run = await cortex(home, ...args, "--json");
  assert.equal(
    run.code,
    expectedCode,
    `cortex ${args.join(" ")}: exit ${run.code}\n${run.stdout}\n${run.stderr}`,
  );
  try {
    return JSON.parse(run.stdout);
  } catch {
    assert.fail(
      `cortex ${args.join(" ")} --json printed something that is not one JSON document:\n${run.stdout}`,
    );
  }
}

/** Asserts the documented error shape and returns its code. */
function errorCode(doc: Record<string, unknown>): string {
  assert.deepEqual(Object.keys(doc), ["error"]);
  const error = doc.error as Record<string, unknown>;
  assert.deepEqual(Object.keys(error).sort(), ["code", "message"]);
  assert.equal(typeof error.message, "string");
  assert.ok((error.message as string).length > 0);
  return error.code as string;
}

async function withHome(fn: (home: string) => Promise<void>): Promise<void> {
  const home = await Deno.makeTempDir({ prefix: "cortex-cli-" });
  try {
    await fn(home);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test("cli: every plugins verb answers --json with one document, exit 0", async () => {
  await withHome(async (home) => {
    const schema = await json(home, 0, "plugins", "schema");
    assert.ok((schema.required as string[]).includes("entryPoint"));

    const installed = await json(home, 0, "plugins", "install", RECORDER, "--trust", "trusted", "--yes");
    assert.equal((installed.installed as Record<string, unknown>).name, "hook-recorder");
    assert.equal((installed.installed as Record<string, unknown>).status, "active");
    assert.equal((installed.plan as Record<string, unknown>).trust, "trusted");
    assert.equal(installed.loadError, null);

    const list = await json(home, 0, "plugins", "list");
    assert.deepEqual((list.plugins as Record<string, unknown>[]).map((p) => [p.name, p.enabled]), [
      ["hook-recorder", true],
    ]);

    const info = await json(home, 0, "plugins", "info", "hook-recorder");
    assert.equal((info.plugin as Record<string, unknown>).trust, "trusted");
    assert.deepEqual((info.tools as Record<string, unknown>[]).map((t) => t.name), ["hook-recorder.ping"]);
    assert.deepEqual((info.permissions as Record<string, unknown>).declared, ["tools"]);

    const result = await json(home, 0, "plugins", "call", "hook-recorder", "ping");
    assert.deepEqual(Object.keys(result).sort(), ["durationMs", "output", "success", "toolName"]);
    assert.equal(result.toolName, "hook-recorder.ping");
    assert.equal(result.output, "pong");
    assert.equal(result.success, true);

    assert.deepEqual(await json(home, 0, "plugins", "config", "hook-recorder", "greeting", '"hi"'), {
      name: "hook-recorder",
      key: "greeting",
      value: "hi",
    });
    assert.deepEqual(await json(home, 0, "plugins", "config", "hook-recorder", "greeting"), {
      name: "hook-recorder",
      key: "greeting",
      value: "hi",
    });
    assert.deepEqual(await json(home, 0, "plugins", "config", "hook-recorder"), {
      name: "hook-recorder",
      config: { greeting: "hi" },
    });

    const disabled = await json(home, 0, "plugins", "disable", "hook-recorder");
    assert.equal((disabled.plugin as Record<string, unknown>).enabled, false);
    assert.equal(
      errorCode(await json(home, 1, "plugins", "call", "hook-recorder", "ping")),
      "plugin_disabled",
    );
    const enabled = await json(home, 0, "plugins", "enable", "hook-recorder");
    assert.equal((enabled.plugin as Record<string, unknown>).enabled, true);
    assert.equal((enabled.plugin as Record<string, unknown>).status, "active");

    const logs = await json(home, 0, "plugins", "logs", "hook-recorder");
    assert.equal(logs.name, "hook-recorder");
    const lines = logs.lines as string[];
    assert.ok(lines.some((l) => l.includes("hook onInstall")));
    assert.ok(lines.some((l) => l.includes("hook onDeactivate")));

    assert.deepEqual(await json(home, 0, "plugins", "remove", "hook-recorder"), { removed: "hook-recorder" });
    assert.equal(errorCode(await json(home, 1, "plugins", "info", "hook-recorder")), "plugin_not_found");
  });
});

Deno.test("cli: permissions --set denies a capability, and call --json reports the refusal", async () => {
  await withHome(async (home) => {
    await json(home, 0, "plugins", "install", LEDGER, "--trust", "trusted", "--yes");
    const ok = await json(
      home,
      0,
      "plugins",
      "call",
      "cortex-plugin-ledger-watch",
      "ledger_balance",
      "--args",
      '{"account":"ab"}',
    );
    assert.equal(JSON.parse(ok.output as string).balance, 195);
    const perms = await json(
      home,
      0,
      "plugins",
      "permissions",
      "cortex-plugin-ledger-watch",
      "--set",
      "network:fetch=deny",
    );
    assert.equal(perms.name, "cortex-plugin-ledger-watch");
    assert.equal(perms.trust, "trusted");
    assert.deepEqual(perms.declared, ["tools", "network:fetch"]);
    assert.deepEqual(perms.effective, ["tools"]);
    assert.deepEqual(perms.overrides, [{ capability: "network:fetch", decision: "deny", scope: [] }]);
    const refused = await json(
      home,
      1,
      "plugins",
      "call",
      "cortex-plugin-ledger-watch",
      "ledger_balance",
      "--args",
      '{"account":"ab"}',
    );
    assert.equal(errorCode(refused), "permission_denied");
  });
});

Deno.test("cli: a failed call prints the ToolCallResult and exits 1", async () => {
  await withHome(async (home) => {
    const src = join(home, "src", "flaky");
    await Deno.mkdir(src, { recursive: true });
    await Deno.writeTextFile(
      join(src, "manifest.json"),
      JSON.stringify(manifestFor("flaky", { limits: { timeoutMs: 200 } })),
    );
    await Deno.writeTextFile(
      join(src, "mod.ts"),
      `export const tools = [
        { definition: { name: "boom", description: "", params: [], capabilities: [] }, execute: () => { throw new Error("kaput"); } },
        { definition: { name: "hang", description: "", params: [], capabilities: [] }, execute: () => new Promise(() => {}) },
      ];`,
    );
    await json(home, 0, "plugins", "install", src, "--trust", "trusted", "--yes");
    const failed = await json(home, 1, "plugins", "call", "flaky", "boom");
    assert.equal(failed.success, false);
    assert.equal(failed.errorCode, "call_failed");
    assert.match(failed.error as string, /kaput/);
    const hung = await json(home, 1, "plugins", "call", "flaky", "hang");
    assert.equal(hung.errorCode, "call_timeout");
  });
});

Deno.test("cli: install without --yes and no TTY refuses with exit 2 and installs nothing", async () => {
  await withHome(async (home) => {
    const doc = await json(home, 2, "plugins", "install", RECORDER, "--trust", "trusted");
    assert.equal(errorCode(doc), "usage");
    assert.match((doc.error as { message: string }).message, /--yes/);
    const plain = await cortex(home, "plugins", "install", RECORDER);
    assert.equal(plain.code, 2);
    assert.match(plain.stderr, /hook-recorder 1\.0\.0 \(esm\)/, "the plan is shown before the refusal");
    const runtime = await Runtime.open({ home });
    try {
      assert.deepEqual(runtime.plugins(), []);
    } finally {
      await runtime.close();
    }
  });
});

Deno.test("cli: usage errors exit 2, with the JSON error shape under --json", async () => {
  await withHome(async (home) => {
    const cases: string[][] = [
      ["plugins", "frobnicate"],
      ["frobnicate"],
      ["plugins", "call", "only-a-name"],
      ["plugins", "install", RECORDER, "--trust", "godlike", "--yes"],
      ["plugins", "list", "--no-such-flag"],
      ["plugins", "call", "x", "y", "--args", "[1, 2]"],
      ["plugins", "call", "x", "y", "--args", "{not json"],
      ["plugins", "permissions", "x", "--set", "tools=maybe"],
      ["plugins", "config", "x", "k", "{not json"],
    ];
    for (const args of cases) assert.equal(errorCode(await json(home, 2, ...args)), "usage", args.join(" "));
    const bare = await cortex(home);
    assert.equal(bare.code, 2);
    assert.match(bare.stdout, /usage:/);
    const unknown = await cortex(home, "plugins", "frobnicate");
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown verb 'plugins frobnicate'/);
  });
});

Deno.test("cli: operational errors exit 1 with their stable code", async () => {
  await withHome(async (home) => {
    const bad = join(home, "src", "bad");
    await Deno.mkdir(bad, { recursive: true });
    await Deno.writeTextFile(
      join(bad, "manifest.json"),
      JSON.stringify(manifestFor("bad", { capabilities: ["warp"] })),
    );
    const refused = await json(home, 1, "plugins", "install", bad, "--yes");
    assert.equal(errorCode(refused), "manifest_invalid");
    assert.match((refused.error as { message: string }).message, /unknown capability "warp"/);
    assert.equal(errorCode(await json(home, 1, "plugins", "call", "nobody", "nothing")), "plugin_not_found");
    assert.equal(errorCode(await json(home, 1, "plugins", "remove", "nobody")), "plugin_not_found");
    const text = await cortex(home, "plugins", "enable", "nobody");
    assert.equal(text.code, 1);
    assert.match(text.stderr, /plugin_not_found/);
  });
});
