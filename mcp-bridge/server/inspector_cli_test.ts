import { equal, ok } from "node:assert/strict";
import { demoSource } from "../testdata/demo_source.ts";
import { inspect } from "../testdata/inspector.ts";
import { mcpHttpHandler } from "./http_handler.ts";

const TOKEN = "inspector-token-9c2";

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
