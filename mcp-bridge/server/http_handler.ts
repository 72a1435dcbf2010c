/**
 * The runtime as a Streamable HTTP MCP server, as a fetch-style handler to
 * mount at `/mcp` (for example in the hono daemon).
 *
 * @module
 */
import { WebStandardStreamableHTTPServerTransport } from "../_sdk.ts";
import { createMcpServer, type McpServerOptions } from "./create_mcp_server.ts";
import { bearerMatches, originAllowed } from "./request_guard.ts";
import type { ToolSource } from "./tool_source.ts";

/** Options for {@link mcpHttpHandler}. */
export interface McpHttpOptions extends McpServerOptions {
  /** The bearer token every request must carry. */
  token: string;
  /** Browser origins allowed besides loopback ones (exact match, such as `https://app.example`). */
  allowedOrigins?: string[];
  /** The most sessions open at once (default 32); a new one beyond that is refused with 503. */
  maxSessions?: number;
  /** A session unused this long is closed when room is needed (default 30 minutes). */
  sessionIdleMs?: number;
}

/** A fetch-style handler with a way to end every session. */
export interface McpHttpHandler {
  /** Answers one HTTP request. */
  (request: Request): Promise<Response>;
  /** Closes every session (call before stopping the HTTP server). */
  close(): Promise<void>;
  /** How many sessions are open. */
  sessionCount(): number;
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  close(): Promise<void>;
  lastSeen: number;
}

/**
 * Makes the `/mcp` handler: the `Origin` must be absent, loopback or allowed
 * (else 403), the bearer token must match (else 401), and each session gets
 * its own server over the SDK's `WebStandardStreamableHTTPServerTransport`.
 *
 * @example
 * ```ts
 * import { Hono } from "hono";
 * import { mcpHttpHandler } from "./http_handler.ts";
 * import type { ToolSource } from "./tool_source.ts";
 * declare const source: ToolSource;
 * const mcp = mcpHttpHandler(source, { name: "cortex", version: "0.1.0", token: "s3cret" });
 * const app = new Hono();
 * app.all("/mcp", (c) => mcp(c.req.raw));
 * ```
 */
export function mcpHttpHandler(source: ToolSource, options: McpHttpOptions): McpHttpHandler {
  const sessions = new Map<string, Session>();
  const maxSessions = options.maxSessions ?? 32;
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;

  const handle = async (request: Request): Promise<Response> => {
    if (!originAllowed(request, options.allowedOrigins)) {
      return refuse(403, "forbidden_origin", "this Origin may not use the MCP endpoint");
    }
    if (!bearerMatches(request, options.token)) {
      return refuse(401, "unauthorized", "a valid bearer token is required", {
        "WWW-Authenticate": "Bearer",
      });
    }
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId !== null) {
      const session = sessions.get(sessionId);
      if (!session) return refuse(404, "session_not_found", "no such MCP session; initialize again");
      session.lastSeen = Date.now();
      return await session.transport.handleRequest(request);
    }
    if (request.method !== "POST") {
      return refuse(400, "bad_request", "a request without mcp-session-id must be an initialize POST");
    }
    await evictIdle(sessions, idleMs);
    if (sessions.size >= maxSessions) {
      return refuse(503, "too_many_sessions", "too many MCP sessions are open");
    }
    return await openSession(source, options, sessions, request);
  };

  return Object.assign(handle, {
    close: async () => {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map((session) => session.close()));
    },
    sessionCount: () => sessions.size,
  });
}

async function openSession(
  source: ToolSource,
  options: McpHttpOptions,
  sessions: Map<string, Session>,
  request: Request,
): Promise<Response> {
  const server = createMcpServer(source, options);
  const session: Session = {
    transport: new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, session),
      onsessionclosed: (id) => void sessions.delete(id),
    }),
    close: () => server.close(),
    lastSeen: Date.now(),
  };
  await server.connect(session.transport);
  const response = await session.transport.handleRequest(request);
  // Anything but a valid initialize leaves the transport without a session: drop it.
  if (session.transport.sessionId === undefined) await session.close();
  return response;
}

async function evictIdle(sessions: Map<string, Session>, idleMs: number): Promise<void> {
  const cutoff = Date.now() - idleMs;
  for (const [id, session] of sessions) {
    if (session.lastSeen >= cutoff) continue;
    sessions.delete(id);
    await session.close();
  }
}

function refuse(
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return Response.json({ error: { code, message } }, { status, headers });
}
