import { join } from "node:path";
import { CortexError } from "../runtime/errors.ts";
import { defaultHome, homeLayout } from "../runtime/home.ts";

/** Where a running daemon says it listens: `<home>/daemon.json`. */
export function daemonInfoPath(home: string): string {
  return join(home, "daemon.json");
}

/** A running daemon's address and token. */
export interface DaemonEndpoint {
  /** Base URL, such as `http://127.0.0.1:4807`. */
  url: string;
  /** The bearer token. */
  token: string;
}

/** Finds the daemon for this home, if one is running and answers. */
export async function findDaemon(home = defaultHome()): Promise<DaemonEndpoint | undefined> {
  let info: { port?: number };
  let token: string;
  try {
    info = JSON.parse(await Deno.readTextFile(daemonInfoPath(home)));
    token = (await Deno.readTextFile(homeLayout(home).token)).trim();
  } catch {
    return undefined;
  }
  if (typeof info.port !== "number") return undefined;
  const url = `http://127.0.0.1:${info.port}`;
  try {
    const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(1000) });
    await response.body?.cancel();
    return response.ok ? { url, token } : undefined;
  } catch {
    return undefined;
  }
}

/** Sends one JSON request to the daemon; a JSON error answer becomes a CortexError. */
export async function daemonRequest(
  endpoint: DaemonEndpoint,
  path: string,
  options: { method?: string; body?: unknown } = {},
): Promise<unknown> {
  const response = await fetch(`${endpoint.url}${path}`, {
    method: options.method ?? "GET",
    headers: {
      authorization: `Bearer ${endpoint.token}`,
      ...(options.body !== undefined ? { "content-type": "application/json" } : {}),
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  const body = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = (body as { error?: { code?: string; message?: string } })?.error;
    throw new CortexError(
      error?.code ?? "internal",
      error?.message ?? `the daemon answered ${response.status}`,
    );
  }
  return body;
}
