/**
 * An MCP server reached over Streamable HTTP as a plugin, and the policy on
 * where an HTTP plugin may reach: loopback freely, anything off this machine
 * only with `network:fetch`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startEverythingHttp } from "../../mcp-bridge/testdata/everything.ts";
import { Harness, manifestFor } from "../support/harness.ts";

/** Writes a folder holding only an mcp manifest whose entry point is `url`. */
async function httpPlugin(h: Harness, name: string, url: string, capabilities: string[]): Promise<string> {
  const dir = join(h.src, name);
  await Deno.mkdir(dir, { recursive: true });
  const manifest = manifestFor(name, { kind: "mcp", entryPoint: url, capabilities });
  await Deno.writeTextFile(join(dir, "manifest.json"), JSON.stringify(manifest, null, 2));
  return dir;
}

/** This machine's address on a non-loopback interface, if it has one. */
function lanAddress(): string | undefined {
  return Deno.networkInterfaces().find((i) => i.family === "IPv4" && !i.address.startsWith("127."))?.address;
}

const LAN = lanAddress();

Deno.test("mcp plugin (http): a loopback Streamable HTTP server's tools are runtime tools and answer calls", async () => {
  const server = await startEverythingHttp("streamableHttp");
  try {
    await using h = await Harness.open({ defaultTimeoutMs: 15_000 });
    const dir = await httpPlugin(h, "remote-everything", server.url, ["tools"]);
    const { row, loadError } = await h.runtime.install(dir);
    assert.equal(loadError, undefined);
    assert.equal(row.status, "active");

    const echo = h.runtime.tools("remote-everything").find((t) => t.name === "echo");
    assert.ok(echo, "echo is listed");
    assert.equal(echo.qualifiedName, "remote-everything.echo");
    assert.deepEqual((echo.inputSchema as { required: string[] }).required, ["message"]);
    assert.equal(echo.annotations?.readOnlyHint, true);
    assert.ok(h.runtime.tools("remote-everything").some((t) => t.name === "mcp_remote-everything"));

    const result = await h.runtime.call("remote-everything.echo", { message: "over http" }, {
      caller: "agent:claude",
    });
    assert.equal(result.output, "Echo: over http");
    const [audit] = h.runtime.store.audit.recent({ plugin: "remote-everything" });
    assert.deepEqual([audit.tool, audit.caller, audit.success], [
      "remote-everything.echo",
      "agent:claude",
      true,
    ]);

    await h.runtime.disable("remote-everything");
    assert.deepEqual(h.runtime.tools("remote-everything"), []);
  } finally {
    await server.close();
  }
});

Deno.test({
  name: "mcp plugin (http): a server off this machine needs network:fetch; without it nothing is sent",
  ignore: LAN === undefined,
  async fn() {
    // A listener on this machine's own non-loopback address stands in for a far server: the policy
    // judges by address, and the listener shows whether any connection was ever made.
    const listener = Deno.listen({ hostname: LAN!, port: 0 });
    try {
      await using h = await Harness.open({ defaultTimeoutMs: 15_000 });
      const url = `http://${LAN}:${listener.addr.port}/mcp`;
      const { row, loadError } = await h.runtime.install(await httpPlugin(h, "far", url, ["tools"]));
      assert.equal(loadError?.code, "permission_denied");
      assert.match(loadError.message, /off this machine .*without "network:fetch"/);
      assert.equal(row.status, "error");
      assert.match(row.error_message ?? "", /permission_denied/);
      assert.deepEqual(h.runtime.tools("far"), []);

      // Our own probe connection must be the first the listener ever accepts.
      const probe = await Deno.connect({ hostname: LAN!, port: listener.addr.port });
      const first = await listener.accept();
      const firstPort = (first.remoteAddr as Deno.NetAddr).port;
      first.close();
      probe.close();
      assert.equal(firstPort, (probe.localAddr as Deno.NetAddr).port, "the runtime never connected");
    } finally {
      listener.close();
    }
  },
});

Deno.test({
  name: "mcp plugin (http): with network:fetch the same off-machine server loads; a denial cuts it off again",
  ignore: LAN === undefined,
  async fn() {
    const server = await startEverythingHttp("streamableHttp");
    try {
      await using h = await Harness.open({ defaultTimeoutMs: 15_000 });
      // server-everything listens on every interface: reach it on the non-loopback address.
      const url = server.url.replace("127.0.0.1", LAN!);
      const dir = await httpPlugin(h, "far-granted", url, ["tools", "network:fetch"]);
      const { loadError } = await h.runtime.install(dir);
      assert.equal(loadError, undefined);
      const result = await h.runtime.call("far-granted.echo", { message: "far away" }, { caller: "person" });
      assert.equal(result.output, "Echo: far away");

      // The person denies the capability: the plugin reloads and is refused.
      const { loadError: denied } = await h.runtime.setPermissions("far-granted", {
        overrides: [{ capability: "network:fetch", decision: "deny", scope: [] }],
      });
      assert.equal(denied?.code, "permission_denied");
      const after = h.runtime.plugin("far-granted");
      assert.equal(after.status, "error");
      assert.match(after.error_message ?? "", /permission_denied/);
      assert.equal(h.runtime.tools("far-granted").length, 0);
    } finally {
      await server.close();
    }
  },
});
