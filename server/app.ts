/**
 * The daemon's HTTP API (hono): list plugins and their tools, call a tool,
 * read recent events. Every `/api` route but `/api/health` needs the bearer
 * token; every error is a JSON `{ error: { code, message } }`.
 *
 * @module
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { z } from "zod";
import { pluginView } from "../cli/plugins/view.ts";
import { CortexError, toCortexError } from "../runtime/errors.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { DASHBOARD_HTML } from "./dashboard.ts";
import { tokenMatches } from "./token.ts";
import { type McpHttpHandler, mcpHttpHandler } from "../mcp-bridge/mod.ts";
import { CORTEX_VERSION } from "../runtime/version.ts";
import { runtimeToolSource } from "./mcp_source.ts";

/** Options for {@link createApp}. */
export interface AppOptions {
  /** The bearer token. */
  token: string;
  /** Host names the API answers to (DNS-rebinding guard). */
  allowedHosts?: string[];
  /** Serves the runtime's tools over MCP (Streamable HTTP) at `/mcp` (default true). */
  mcp?: boolean;
  /** Browser origins allowed to use `/mcp` besides loopback ones. */
  mcpAllowedOrigins?: string[];
}

const STATUS_BY_CODE: Record<string, ContentfulStatusCode> = {
  unauthorized: 401,
  bad_request: 400,
  usage: 400,
  args_invalid: 400,
  plugin_not_found: 404,
  tool_not_found: 404,
  plugin_disabled: 409,
  plugin_not_active: 409,
  permission_denied: 403,
  forbidden_host: 403,
};

const callBodySchema = z.object({
  args: z.record(z.string(), z.unknown()).default({}),
  timeoutMs: z.number().int().min(1).max(600_000).optional(),
}).strict();

/** The daemon's HTTP app: a fetch handler, and `request` for tests and embedding. */
export interface DaemonApp {
  /** Answers one request. */
  fetch(request: Request): Response | Promise<Response>;
  /** Answers a request given as a path (or URL) and init, as `fetch` would. */
  request(input: string, init?: RequestInit): Response | Promise<Response>;
  /** Ends open MCP sessions (call before stopping the server). */
  close(): Promise<void>;
}

/** Builds the daemon's HTTP app over a runtime. */
export function createApp(runtime: Runtime, options: AppOptions): DaemonApp {
  const mcp = options.mcp === false ? undefined : mcpHttpHandler(runtimeToolSource(runtime), {
    name: "cortex",
    version: CORTEX_VERSION,
    token: options.token,
    allowedOrigins: options.mcpAllowedOrigins,
  });
  const app = buildHono(runtime, options, mcp);
  return {
    fetch: (request) => app.fetch(request),
    request: (input, init) => app.request(input, init),
    close: async () => await mcp?.close(),
  };
}

function buildHono(runtime: Runtime, options: AppOptions, mcp: McpHttpHandler | undefined): Hono {
  const app = new Hono();

  app.onError((error, c) => {
    const e = toCortexError(error);
    const status = STATUS_BY_CODE[e.code] ?? (e.code === "internal" ? 500 : 422);
    return c.json({ error: { code: e.code, message: e.message } }, status);
  });
  app.notFound((c) =>
    c.json({ error: { code: "not_found", message: `no route ${c.req.method} ${c.req.path}` } }, 404)
  );

  app.use("*", async (c, next) => {
    const host = (c.req.header("host") ?? new URL(c.req.url).host).replace(/:\d+$/, "");
    const allowed = options.allowedHosts ?? ["127.0.0.1", "localhost", "[::1]"];
    if (!allowed.includes(host)) {
      throw new CortexError("forbidden_host", `requests must address the daemon as ${allowed.join(" or ")}`);
    }
    await next();
  });

  app.get("/", (c) => c.html(DASHBOARD_HTML));
  // The MCP endpoint checks the same bearer token and the Origin header itself.
  if (mcp) app.all("/mcp", (c) => mcp(c.req.raw));
  app.get("/api/health", (c) => c.json({ ok: true }));

  app.use("/api/*", async (c, next) => {
    if (!tokenMatches(c.req.header("authorization"), options.token)) {
      throw new CortexError("unauthorized", "a valid bearer token is required (see <home>/daemon.token)");
    }
    await next();
  });
  app.use(
    "/api/*",
    bodyLimit({
      maxSize: 1024 * 1024,
      onError: () => {
        throw new CortexError("bad_request", "the request body is larger than 1 MiB");
      },
    }),
  );

  app.get("/api/plugins", (c) => {
    const plugins = runtime.plugins().map((row) => ({
      ...pluginView(row),
      active: runtime.isActive(row.name),
      boundary: runtime.boundary(row.name) ?? null,
      tools: runtime.tools(row.name).map((t) => t.qualifiedName),
    }));
    return c.json({ plugins });
  });

  app.get("/api/plugins/:name", (c) => {
    const name = c.req.param("name");
    const row = runtime.plugin(name);
    return c.json({
      plugin: { ...pluginView(row), active: runtime.isActive(name) },
      tools: runtime.tools(name).map(toolView),
      permissions: runtime.permissions(name),
    });
  });

  app.get("/api/tools", (c) => c.json({ tools: runtime.tools().map(toolView) }));

  app.post("/api/tools/:tool/call", async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw new CortexError("bad_request", 'the body must be JSON: { "args": { ... } }');
    }
    const parsed = callBodySchema.safeParse(body);
    if (!parsed.success) {
      throw new CortexError(
        "bad_request",
        `the body must be { "args": object, "timeoutMs"?: integer }: ${
          parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")
        }`,
      );
    }
    const result = await runtime.call(c.req.param("tool"), parsed.data.args, {
      caller: "person",
      timeoutMs: parsed.data.timeoutMs,
    });
    return c.json(result);
  });

  app.get("/api/events", (c) => {
    const since = Number(c.req.query("since") ?? "0");
    const limit = Number(c.req.query("limit") ?? "100");
    if (!Number.isInteger(since) || since < 0 || !Number.isInteger(limit) || limit < 1 || limit > 1000) {
      throw new CortexError(
        "bad_request",
        "since must be an integer >= 0 and limit an integer from 1 to 1000",
      );
    }
    return c.json({ events: runtime.recentEvents({ since, limit }) });
  });

  app.get("/api/audit", (c) => {
    const plugin = c.req.query("plugin");
    return c.json({ audit: runtime.store.audit.recent({ plugin, limit: 100 }) });
  });

  return app;
}

function toolView(t: ReturnType<Runtime["tools"]>[number]) {
  return {
    name: t.qualifiedName,
    plugin: t.owner,
    description: t.description,
    inputSchema: t.inputSchema,
    capabilities: t.capabilities,
    annotations: t.annotations,
  };
}
