/**
 * MCP plugins whose server is a process of their own: one that never
 * answers, one that is slow, and a native program (python3) the person must
 * allow with a `shell:run` grant.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Harness } from "../support/harness.ts";
import { eventually, MCP_FIXTURES_DIR, refusal } from "../support/mcp.ts";

const ON_LINUX = Deno.build.os === "linux";

/** Whether a process is still running (Linux: its /proc entry). */
function running(pid: number): boolean {
  try {
    Deno.statSync(`/proc/${pid}`);
    return true;
  } catch {
    return false;
  }
}

/** The pid a fixture server wrote to its stderr (the plugin's log) as `<name> pid <n>`. */
async function serverPid(h: Harness, name: string): Promise<number> {
  const pattern = new RegExp(`${name} pid (\\d+)`);
  let pid = 0;
  await eventually(async () => {
    const line = (await h.logLines(name)).find((l) => pattern.test(l));
    if (line) pid = Number(pattern.exec(line)![1]);
    return pid > 0;
  }, `the pid line of ${name} in its log`);
  return pid;
}

Deno.test({
  name: "mcp plugin: a server that never answers initialize leaves the plugin in error, and is stopped",
  ignore: !ON_LINUX,
  async fn() {
    await using h = await Harness.open({ defaultTimeoutMs: 1000 });
    const { row, loadError } = await h.runtime.install(join(MCP_FIXTURES_DIR, "silent-mcp"));
    assert.ok(loadError, "the load fails");
    assert.equal(row.status, "error");
    // Either deadline may say it first: the MCP handshake's or the load's (both are the plugin's timeout).
    assert.match(
      row.error_message ?? "",
      /^(mcp_init_timeout: .*initialize|hook_timeout: loading silent-mcp did not finish within 1000 ms)/,
    );
    assert.deepEqual(h.runtime.tools("silent-mcp"), []);
    assert.equal(
      (await refusal(h.runtime.call("silent-mcp.anything", {}, { caller: "person" }))).code,
      "plugin_not_active",
    );

    const pid = await serverPid(h, "silent-mcp");
    await eventually(() => !running(pid), `the silent server (pid ${pid}) to be stopped`);
  },
});

Deno.test({
  // Fails today: the load's deadline passes while the loader is still listing tools; the late
  // LoadedPlugin is dropped without unload(), so its server process keeps running.
  name: "mcp plugin: a server too slow to finish loading is stopped, not left running",
  ignore: !ON_LINUX,
  async fn() {
    // Each answer takes 1.2 s: initialize and tools/list each fit the 2 s deadline, the load as a whole does not.
    await using h = await Harness.open({ defaultTimeoutMs: 2000 });
    const { row } = await h.runtime.install(join(MCP_FIXTURES_DIR, "slow-mcp"));
    assert.equal(row.status, "error");
    assert.match(row.error_message ?? "", /did not finish within 2000 ms/);
    const pid = await serverPid(h, "slow-mcp");
    await eventually(() => !running(pid), `the slow server (pid ${pid}) to be stopped`, 5000);
  },
});

Deno.test("mcp plugin: a native stdio server (python3) needs shell:run granted for that command", async () => {
  await using h = await Harness.open({ defaultTimeoutMs: 10_000 });
  const { row, loadError } = await h.runtime.install(join(MCP_FIXTURES_DIR, "py-mcp"));
  assert.equal(loadError?.code, "permission_denied");
  assert.match(loadError.message, /starts the program "python3"/);
  assert.match(loadError.message, /--set shell:run=grant:python3/, "the message says how to allow it");
  assert.equal(row.status, "error");
  assert.deepEqual(h.runtime.tools("py-mcp"), []);

  // A grant for another program does not cover python3.
  const other = await h.runtime.setPermissions("py-mcp", {
    overrides: [{ capability: "shell:run", decision: "grant", scope: ["node"] }],
  });
  assert.equal(other.loadError?.code, "permission_denied");
  assert.equal((await refusal(h.runtime.load("py-mcp"))).code, "permission_denied");

  // The right grant loads the failed plugin straight away.
  const granted = await h.runtime.setPermissions("py-mcp", {
    overrides: [{ capability: "shell:run", decision: "grant", scope: ["python3"] }],
  });
  assert.equal(granted.loadError, undefined);
  assert.equal(h.runtime.plugin("py-mcp").status, "active");
  const shout = h.runtime.tools("py-mcp").find((t) => t.name === "shout");
  assert.ok(shout, "the Python server's tool is a runtime tool");
  assert.deepEqual(shout.annotations, { readOnlyHint: true });
  assert.deepEqual((shout.inputSchema as { required: string[] }).required, ["text"]);

  const result = await h.runtime.call("py-mcp.shout", { text: "hello" }, { caller: "person" });
  assert.equal(result.success, true, result.error);
  assert.equal(result.output, "HELLO!");
  assert.equal(
    (await refusal(h.runtime.call("py-mcp.shout", {}, { caller: "person" }))).code,
    "args_invalid",
  );

  // Its stderr is in the plugin's log.
  await eventually(
    async () => (await h.logLines("py-mcp")).some((l) => l.endsWith("py-mcp shouts hello")),
    "the Python server's stderr line in logs/py-mcp.log",
  );
});
