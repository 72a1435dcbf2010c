import { equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { demoSource } from "../testdata/demo_source.ts";
import { mcpHttpHandler } from "./http_handler.ts";

// The MCP project's own inspector, as an outside client that nobody here wrote.
const INSPECTOR = "npm:@modelcontextprotocol/inspector-cli@1.0.3/build/index.js";
const TOKEN = "inspector-token-9c2";

/**
 * Runs the inspector CLI. It looks for `../package.json` relative to its
 * working folder (and then imports it relative to itself), so it runs from a
 * folder whose parent holds a package.json.
 */
async function inspect(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const root = await Deno.makeTempDir({ prefix: "cortex-inspector-" });
  try {
    await Deno.writeTextFile(join(root, "package.json"), "{}");
    await Deno.mkdir(join(root, "run"));
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--no-config", INSPECTOR, ...args],
      cwd: join(root, "run"),
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("inspector-cli lists and calls the runtime's tools over Streamable HTTP", async () => {
  const mcp = mcpHttpHandler(demoSource(), { name: "cortex", version: "0.1.0", token: TOKEN });
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) => mcp(request),
  );
  const url = `http://127.0.0.1:${server.addr.port}/mcp`;
  const auth = ["--transport", "http", "--header", `Authorization: Bearer ${TOKEN}`];
  try {
    const listed = await inspect([url, ...auth, "--method", "tools/list"]);
    equal(listed.code, 0, listed.stderr);
    const { tools } = JSON.parse(listed.stdout) as { tools: { name: string }[] };
    ok(tools.some((tool) => tool.name === "demo.echo"));

    const called = await inspect([
      url,
      ...auth,
      "--method",
      "tools/call",
      "--tool-name",
      "demo.echo",
      "--tool-arg",
      "message=inspected",
    ]);
    equal(called.code, 0, called.stderr);
    const result = JSON.parse(called.stdout) as { content: { text: string }[] };
    ok(result.content[0].text.endsWith("says inspected"), result.content[0].text);
    ok(result.content[0].text.startsWith("agent:"), result.content[0].text);

    const refused = await inspect([url, "--transport", "http", "--method", "tools/list"]);
    ok(refused.code !== 0, "no token, no tools");
  } finally {
    await mcp.close();
  }
});
