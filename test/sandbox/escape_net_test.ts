/**
 * Hostile plugins against the network: no network without network:fetch and
 * a host the person granted; loopback and private addresses refused unless
 * that exact host was granted; the daemon's own port never, even when
 * granted; no remote code. Also the positive controls: what the person did
 * grant works, so the refusals are the sandbox's and not a broken setup.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { assertDenied, openSandbox } from "./sandbox_harness.ts";

/** A local HTTP server standing in for a service (or for the daemon). */
function localServer(body: string): { url: string; port: number } & AsyncDisposable {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, () => new Response(body));
  const port = server.addr.port;
  return { url: `http://127.0.0.1:${port}/`, port, [Symbol.asyncDispose]: () => server.shutdown() };
}

const NET = { capability: "network:fetch", decision: "grant" as const };

Deno.test("sandbox net: a plugin without network:fetch cannot fetch a loopback service", async () => {
  await using service = localServer("secret");
  await using h = await openSandbox();
  await h.install("snoop");
  assertDenied(await h.call("snoop.attempt", { what: "fetch", target: service.url }));
  await h.assertEchoAnswers();
});

Deno.test("sandbox net: a plugin without net access cannot listen on a port", async () => {
  await using h = await openSandbox();
  await h.install("snoop");
  assertDenied(await h.call("snoop.attempt", { what: "listen", target: "0" }));
  await h.assertEchoAnswers();
});

Deno.test("sandbox net: a plugin cannot import code from a remote URL", async () => {
  await using h = await openSandbox();
  await h.install("snoop");
  assertDenied(
    await h.call("snoop.attempt", { what: "import", target: "https://deno.land/std@0.224.0/version.ts" }),
    /no-remote|NotCapable|Requires/,
  );
  await h.assertEchoAnswers();
});

Deno.test("sandbox net: declaring network:fetch without a grant gives no network", async () => {
  await using service = localServer("secret");
  await using h = await openSandbox();
  await h.install("netty");
  assertDenied(await h.call("netty.attempt", { what: "fetch", target: service.url }));
  await h.assertEchoAnswers();
});

Deno.test("sandbox net: the daemon's port stays refused even when the person granted it", async () => {
  await using daemon = localServer("daemon api");
  await using h = await openSandbox({ loader: { daemonPorts: [daemon.port] } });
  await h.install("netty", [{ ...NET, scope: [`127.0.0.1:${daemon.port}`, "localhost"] }]);
  assertDenied(await h.call("netty.attempt", { what: "fetch", target: daemon.url }));
  assertDenied(await h.call("netty.attempt", { what: "fetch", target: `http://localhost:${daemon.port}/` }));
  assert.match(await h.log("netty"), /not used: it could reach the runtime's own HTTP API/);
  await h.assertEchoAnswers();
});

Deno.test("sandbox net: a public-host grant does not reach loopback, private or metadata addresses", async () => {
  await using service = localServer("secret");
  await using h = await openSandbox();
  await h.install("netty", [{ ...NET, scope: ["api.example.com:443"] }]);
  for (
    const target of [service.url, "http://10.0.0.1/", "http://192.168.1.1/", "http://169.254.169.254/latest"]
  ) {
    assertDenied(await h.call("netty.attempt", { what: "fetch", target }));
  }
  assertDenied(await h.call("netty.attempt", { what: "connect", target: `127.0.0.1:${service.port}` }));
  await h.assertEchoAnswers();
});

Deno.test("sandbox net: exactly the host the person granted is reachable, and nothing next to it", async () => {
  await using granted = localServer("granted service");
  await using other = localServer("other service");
  await using h = await openSandbox();
  await h.install("netty", [{ ...NET, scope: [`127.0.0.1:${granted.port}`] }]);
  const ok = await h.call("netty.attempt", { what: "fetch", target: granted.url });
  assert.ok(ok.success, ok.error);
  assert.equal(ok.output, "ESCAPED: granted service");
  assertDenied(await h.call("netty.attempt", { what: "fetch", target: other.url }));
  await h.assertEchoAnswers();
});

Deno.test("sandbox run: shell:run runs only the commands the person granted", async () => {
  await using h = await openSandbox();
  await h.install("netty", [{ capability: "shell:run", decision: "grant", scope: ["echo"] }]);
  const ok = await h.call("netty.attempt", { what: "run", target: "echo" });
  assert.ok(ok.success, ok.error);
  assert.match(ok.output, /-c id/);
  assertDenied(await h.call("netty.attempt", { what: "run", target: "sh" }));
  assertDenied(await h.call("netty.attempt", { what: "run", target: "/bin/sh" }));
  await h.assertEchoAnswers();
});

Deno.test("sandbox fs: fs:write reaches the plugin's own data folder and nothing else", async () => {
  await using h = await openSandbox();
  await h.install("netty");
  const own = join(h.home, "data", "plugin-data", "netty", "note.txt");
  const ok = await h.call("netty.attempt", { what: "write", target: own });
  assert.ok(ok.success, ok.error);
  assert.equal(await Deno.readTextFile(own), "pwned");
  assertDenied(await h.call("netty.attempt", { what: "write", target: join(h.home, "planted.txt") }));
  assertDenied(
    await h.call("netty.attempt", {
      what: "write",
      target: join(h.home, "data", "plugins", "netty", "mod.ts"),
    }),
  );
  assertDenied(await h.call("netty.attempt", { what: "symlink", target: join(h.home, "data", "cortex.db") }));
  await h.assertEchoAnswers();
});
