/**
 * `cortex mcp serve` as an agent sees it: the real command in its own process,
 * driven over stdio by the MCP SDK's own client.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Harness } from "../support/harness.ts";
import { Client, EXAMPLES_DIR, firstText, REPO_ROOT, StdioClientTransport } from "../support/mcp.ts";

const CLIENT_NAME = "cortex-itest";

/** Runs `cortex mcp serve` on `home`, connects the SDK client, runs `session`, then closes both. */
async function withServeSession(home: string, session: (client: Client) => Promise<void>): Promise<void> {
  const denoDir = Deno.env.get("DENO_DIR");
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "--unstable-worker-options", "-A", "cli/main.ts", "mcp", "serve"],
    cwd: REPO_ROOT,
    env: { CORTEX_HOME: home, NO_COLOR: "1", ...(denoDir ? { DENO_DIR: denoDir } : {}) },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => void (stderr += new TextDecoder().decode(chunk)));
  const client = new Client({ name: CLIENT_NAME, version: "1.0.0" });
  try {
    await client.connect(transport, { timeout: 30_000 });
    await session(client);
  } catch (error) {
    (error as Error).message += `\n--- cortex mcp serve stderr ---\n${stderr}`;
    throw error;
  } finally {
    await client.close();
  }
}

Deno.test("cortex mcp serve: the SDK client lists, calls (audited as the agent) and reads the capabilities", async () => {
  await using h = await Harness.open();
  const installed = await h.runtime.install(join(EXAMPLES_DIR, "esm", "hello"), { trust: "trusted" });
  assert.equal(installed.loadError, undefined);

  // The command opens the home itself; this process keeps no runtime open meanwhile.
  await h.reopen(() =>
    withServeSession(h.home, async (client) => {
      assert.equal(client.getServerVersion()?.name, "cortex");

      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), ["hello.count", "hello.greet"]);
      const greet = tools.find((t) => t.name === "hello.greet")!;
      assert.equal(greet.description, "Greets someone by name");
      assert.deepEqual(greet.inputSchema, {
        type: "object",
        properties: {
          name: { type: "string", description: "Who to greet" },
          style: { type: "string", description: "How", enum: ["plain", "loud"] },
        },
        required: ["name"],
        additionalProperties: false,
      });

      const called = await client.callTool({
        name: "hello.greet",
        arguments: { name: "Ada", style: "loud" },
      });
      assert.equal(called.isError ?? false, false);
      assert.equal(firstText(called), "HELLO, ADA!");

      // The runtime's own refusals come back as tool errors with their code.
      const refused = await client.callTool({ name: "hello.greet", arguments: { name: 7 } });
      assert.equal(refused.isError, true);
      assert.match(firstText(refused), /^args_invalid: /);

      const doc = await client.readResource({ uri: "cortex://capabilities" });
      const [content] = doc.contents;
      assert.ok(content && "text" in content, "the capability document is text");
      const capabilities = JSON.parse(String(content.text)) as {
        plugins: { name: string; trust: string; active: boolean; tools: string[] }[];
      };
      const hello = capabilities.plugins.find((p) => p.name === "hello");
      assert.ok(hello, `hello is listed: ${content.text}`);
      assert.equal(hello.trust, "trusted");
      assert.equal(hello.active, true);
      assert.deepEqual(hello.tools.sort(), ["hello.count", "hello.greet"]);
    })
  );

  // The calls went through the one call path of the serving process: its audit rows are in the store.
  const audit = h.runtime.store.audit.recent({ plugin: "hello" });
  assert.deepEqual(
    audit.map((a) => [a.tool, a.caller, a.success]),
    [["hello.greet", `agent:${CLIENT_NAME}`, true]],
    "the refused call never ran; the successful one is audited with the agent's label",
  );
  await h.runtime.load("hello");
  const count = await h.runtime.call("hello.count", {}, { caller: "person" });
  assert.equal(count.output, "1", "the served call changed the plugin's state in the home");
});
