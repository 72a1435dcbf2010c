import { deepEqual, equal, match } from "node:assert/strict";
import { CORTEX_ERR, CORTEX_ERR_BUFFER_TOO_SMALL, CORTEX_ERR_DENIED, CORTEX_OK } from "./abi.ts";
import { startWasmPlugin } from "./start_wasm_plugin.ts";
import { buildProbe, memoryServices, testOptions } from "./test_util.ts";
import type { WasmPlugin, WasmPluginOptions } from "./types.ts";

const probe = await buildProbe();

const held: (() => void)[] = [];

function handler(request: Request): Response | Promise<Response> {
  const url = new URL(request.url);
  switch (url.pathname) {
    case "/hello":
      return new Response("hello ✓");
    case "/missing":
      return new Response("not here", { status: 404 });
    case "/echo":
      return request.text().then((body) =>
        new Response(`${request.method} ${request.headers.get("x-test")} ${body}`, { status: 201 })
      );
    case "/big":
      return new Response("x".repeat(5000));
    case "/redirect":
      return Response.redirect(`http://localhost:${url.port}/hello`, 302);
    case "/slow":
      // Held until the test ends, long after the host gave up on it.
      return new Promise((resolve) => held.push(() => resolve(new Response("late"))));
    default:
      return new Response("?", { status: 400 });
  }
}

async function withServer(
  options: Partial<WasmPluginOptions>,
  run: (plugin: WasmPlugin, base: string) => Promise<void>,
): Promise<void> {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
  const plugin = await startWasmPlugin(probe, testOptions(memoryServices().services, options));
  try {
    await run(plugin, `http://127.0.0.1:${server.addr.port}`);
  } finally {
    await plugin.close();
    for (const release of held.splice(0)) release();
    await server.shutdown();
  }
}

const loopbackAllowed: Partial<WasmPluginOptions> = {
  allowNetwork: true,
  isHostAllowed: (url) => url.hostname === "127.0.0.1",
};

async function http(plugin: WasmPlugin, args: Record<string, unknown>) {
  const result = await plugin.callTool("http", args);
  return JSON.parse(result.output);
}

Deno.test("an allowed request returns the real status and body while the main thread keeps serving", async () => {
  await withServer(loopbackAllowed, async (plugin, base) => {
    deepEqual(await http(plugin, { url: `${base}/hello` }), {
      rc: CORTEX_OK,
      status: 200,
      len: 9,
      body: "hello ✓",
    });
    deepEqual(await http(plugin, { url: `${base}/missing` }), {
      rc: CORTEX_OK,
      status: 404,
      len: 8,
      body: "not here",
    });
  });
});

Deno.test("method, headers and body reach the server", async () => {
  await withServer(loopbackAllowed, async (plugin, base) => {
    const r = await http(plugin, {
      method: "POST",
      url: `${base}/echo`,
      body: "payload ✓",
      headers: JSON.stringify({ "x-test": "yes" }),
    });
    deepEqual([r.rc, r.status, r.body], [CORTEX_OK, 201, "POST yes payload ✓"]);
  });
});

Deno.test("loopback is refused by default, and everything is refused without allowNetwork", async () => {
  await withServer({ allowNetwork: true }, async (plugin, base) => {
    const r = await http(plugin, { url: `${base}/hello` });
    deepEqual([r.rc, r.status], [CORTEX_ERR_DENIED, 0]);
    match(r.body, /not allowed/);
  });
  await withServer({ ...loopbackAllowed, allowNetwork: false }, async (plugin, base) => {
    const r = await http(plugin, { url: `${base}/hello` });
    deepEqual([r.rc, r.status], [CORTEX_ERR_DENIED, 0]);
    match(r.body, /not granted/);
  });
});

Deno.test("a redirect to a host the policy refuses is refused", async () => {
  await withServer(loopbackAllowed, async (plugin, base) => {
    const r = await http(plugin, { url: `${base}/redirect` });
    deepEqual([r.rc, r.status], [CORTEX_ERR_DENIED, 0]);
  });
});

Deno.test("a body larger than the plugin's buffer comes back cut, with its full length", async () => {
  await withServer(loopbackAllowed, async (plugin, base) => {
    const r = await http(plugin, { url: `${base}/big`, cap: 10 });
    deepEqual(r, { rc: CORTEX_ERR_BUFFER_TOO_SMALL, status: 200, len: 5000, body: "x".repeat(10) });
  });
});

Deno.test("a response over the size cap and a request past its deadline fail", async () => {
  await withServer(
    { ...loopbackAllowed, maxHttpResponseBytes: 1000, httpTimeoutMs: 300 },
    async (plugin, base) => {
      const big = await http(plugin, { url: `${base}/big` });
      deepEqual([big.rc, big.status], [CORTEX_ERR, 0]);
      match(big.body, /larger than 1000 bytes/);
      const slow = await http(plugin, { url: `${base}/slow` });
      deepEqual([slow.rc, slow.status], [CORTEX_ERR, 0]);
      match(slow.body, /did not finish within 300 ms/);
      equal((await http(plugin, { url: `${base}/hello` })).status, 200);
    },
  );
});
