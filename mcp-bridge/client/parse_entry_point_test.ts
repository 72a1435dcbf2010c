import { deepEqual, equal, ok, throws } from "node:assert/strict";
import { CortexError } from "../../runtime/errors.ts";
import { parseMcpEntryPoint } from "./parse_entry_point.ts";

const host: Record<string, string> = {
  PATH: "/usr/bin",
  HOME: "/home/me",
  API_KEY: "secret-1",
  DENO_DIR: "/cache/deno",
};
const options = {
  pluginDir: "/plugins/weather",
  dataDir: "/data/weather",
  hostEnv: (n: string) => host[n],
  denoPath: "/bin/deno",
};

function invalid(fn: () => unknown, fragment: string) {
  throws(fn, (error: unknown) => {
    ok(error instanceof CortexError, String(error));
    equal(error.code, "mcp_manifest_invalid");
    ok(error.message.includes(fragment), error.message);
    return true;
  });
}

Deno.test("an http(s) entry point is a Streamable HTTP server, with optional headers", () => {
  deepEqual(parseMcpEntryPoint({ entryPoint: "https://mcp.example/rpc" }, options), {
    transport: "http",
    url: "https://mcp.example/rpc",
  });
  deepEqual(
    parseMcpEntryPoint(
      { entryPoint: "http://127.0.0.1:9/mcp", mcp: { headers: { "X-Team": "a" } } },
      options,
    ),
    { transport: "http", url: "http://127.0.0.1:9/mcp", headers: { "X-Team": "a" } },
  );
  invalid(
    () => parseMcpEntryPoint({ entryPoint: "https://x.example", mcp: { command: "node" } }, options),
    "only mcp.headers",
  );
});

Deno.test("a TypeScript entry runs under deno run with derived permissions and only the named env", () => {
  const spec = parseMcpEntryPoint({
    entryPoint: "server.ts",
    mcp: { args: ["--verbose"], env: { UNITS: "metric" }, envFrom: ["API_KEY", "NOT_SET"] },
    capabilities: ["tools", "network:fetch"],
  }, options);
  deepEqual(spec, {
    transport: "stdio",
    command: "/bin/deno",
    args: [
      "run",
      "--no-prompt",
      "--allow-env",
      "--allow-read=/plugins/weather,/data/weather",
      "--allow-net",
      "/plugins/weather/server.ts",
      "--verbose",
    ],
    cwd: "/plugins/weather",
    env: { PATH: "/usr/bin", UNITS: "metric", API_KEY: "secret-1", DENO_DIR: "/cache/deno" },
    sandboxed: true,
  });
});

Deno.test("the suggested node form runs the same file under Deno, without naming it twice", () => {
  const spec = parseMcpEntryPoint(
    { entryPoint: "server.js", mcp: { command: "node", args: ["server.js", "stdio"] } },
    options,
  );
  equal(spec.transport, "stdio");
  if (spec.transport !== "stdio") return;
  deepEqual(spec.args.slice(-2), ["/plugins/weather/server.js", "stdio"]);
  equal(spec.command, "/bin/deno");
  ok(!spec.args.includes("--allow-net"), "no network without a network capability");
});

Deno.test("an npm: entry runs under Deno and may read the npm cache", () => {
  const spec = parseMcpEntryPoint(
    { entryPoint: "npm:@scope/server@1.2.3", mcp: { args: ["stdio"] } },
    options,
  );
  if (spec.transport !== "stdio") throw new Error("expected stdio");
  ok(spec.args.includes("--allow-read=/plugins/weather,/data/weather,/cache/deno/npm"), spec.args.join(" "));
  deepEqual(spec.args.slice(-3), ["--no-config", "npm:@scope/server@1.2.3", "stdio"]);
  invalid(() => parseMcpEntryPoint({ entryPoint: "npm:bad name" }, options), "npm:");
  invalid(
    () => parseMcpEntryPoint({ entryPoint: "npm:x", mcp: { command: "python3" } }, options),
    "runs under Deno",
  );
});

Deno.test("a native command is not sandboxed and says so", () => {
  const spec = parseMcpEntryPoint(
    { entryPoint: "server.py", mcp: { command: "python3", args: ["server.py"] } },
    options,
  );
  deepEqual(spec, {
    transport: "stdio",
    command: "python3",
    args: ["server.py"],
    cwd: "/plugins/weather",
    env: { PATH: "/usr/bin" },
    sandboxed: false,
  });
  const binary = parseMcpEntryPoint({ entryPoint: "bin/server" }, options);
  equal(binary.transport === "stdio" && binary.command, "/plugins/weather/bin/server");
});

Deno.test("entry points outside the plugin folder and malformed mcp sections are refused", () => {
  invalid(() => parseMcpEntryPoint({ entryPoint: "../other/server.ts" }, options), "outside");
  invalid(() => parseMcpEntryPoint({ entryPoint: "/etc/server.ts" }, options), "relative");
  invalid(
    () => parseMcpEntryPoint({ entryPoint: "s.ts", mcp: { env: { "BAD-NAME": "x" } } }, options),
    "mcp.env",
  );
  invalid(() => parseMcpEntryPoint({ entryPoint: "s.ts", mcp: { cmd: "node" } }, options), "mcp");
  invalid(() => parseMcpEntryPoint({ entryPoint: "s.ts", mcp: { args: "stdio" } }, options), "mcp.args");
  invalid(() => parseMcpEntryPoint({ entryPoint: "s.ts", mcp: { headers: { A: "b" } } }, options), "headers");
});
