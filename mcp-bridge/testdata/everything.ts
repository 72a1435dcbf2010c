/**
 * Test fixture: the MCP project's own reference server,
 * `@modelcontextprotocol/server-everything` from npm, run under Deno. It picks
 * its transport from its first argument (`stdio`, `sse`, `streamableHttp`) and
 * its HTTP port from `PORT`.
 *
 * @module
 */
import { join } from "node:path";
import { denoDir } from "../client/deno_dir.ts";
import { parseMcpEntryPoint } from "../client/parse_entry_point.ts";
import type { McpStdioSpec } from "../client/spec.ts";

/** The pinned package, so a new release cannot change what the tests see. */
export const EVERYTHING = "npm:@modelcontextprotocol/server-everything@2026.8.31";

/** Generous: the first run downloads the package. This is a deadline, not a measurement. */
export const EVERYTHING_INIT_MS = 60_000;

let cached: Promise<void> | undefined;

/** Downloads the package into the Deno cache once per test process. */
export function cacheEverything(): Promise<void> {
  cached ??= (async () => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["cache", "--no-config", EVERYTHING],
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!out.success) throw new Error(`deno cache failed: ${new TextDecoder().decode(out.stderr)}`);
  })();
  return cached;
}

/** The stdio spec a manifest `{ entryPoint: EVERYTHING, mcp: { args: ["stdio"], ... } }` yields. */
export function everythingStdioSpec(
  pluginDir: string,
  options: {
    capabilities?: string[];
    mcp?: Record<string, unknown>;
    hostEnv?: (name: string) => string | undefined;
  } = {},
): McpStdioSpec {
  const spec = parseMcpEntryPoint(
    {
      entryPoint: EVERYTHING,
      mcp: { args: ["stdio"], ...options.mcp },
      capabilities: options.capabilities ?? [],
    },
    { pluginDir, hostEnv: options.hostEnv },
  );
  if (spec.transport !== "stdio") throw new Error("expected a stdio spec");
  return spec;
}

/** A running HTTP server-everything. */
export interface EverythingHttp {
  /** Its endpoint (`/mcp` for streamableHttp, `/sse` for sse). */
  url: string;
  /** Stops it and waits for it to exit. */
  close(): Promise<void>;
}

/**
 * Starts server-everything over HTTP on a free loopback port and waits for it
 * to say it listens. (It binds every interface; the tests only reach it on 127.0.0.1.)
 */
export async function startEverythingHttp(mode: "streamableHttp" | "sse"): Promise<EverythingHttp> {
  await cacheEverything();
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = probe.addr.port;
  probe.close();
  const cache = denoDir((name) => Deno.env.get(name));
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-config",
      "--no-prompt",
      "--allow-net",
      "--allow-env",
      `--allow-read=${cache ? join(cache, "npm") : "."}`,
      EVERYTHING,
      mode,
    ],
    env: { PORT: String(port) },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!/listening on port|running on port/i.test(seen)) {
    const { value, done } = await reader.read();
    if (done) {
      await child.status;
      throw new Error(`server-everything ${mode} exited: ${seen}`);
    }
    seen += value;
  }
  // Keep draining stderr so the server never blocks on a full pipe.
  const drained = (async () => {
    while (!(await reader.read()).done) { /* discard */ }
  })();
  return {
    url: `http://127.0.0.1:${port}/${mode === "sse" ? "sse" : "mcp"}`,
    close: async () => {
      child.kill("SIGTERM");
      await child.status;
      await drained;
    },
  };
}
