/**
 * The checks every HTTP request to `/mcp` passes before the SDK sees it:
 * the `Origin` (against DNS rebinding from a browser page) and the bearer token.
 *
 * @module
 */

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * True when the request has no `Origin` (a non-browser client), a loopback
 * origin, or one of `allowedOrigins` exactly.
 *
 * @example
 * ```ts
 * import { originAllowed } from "./request_guard.ts";
 * originAllowed(new Request("http://127.0.0.1/mcp", { headers: { origin: "https://evil.example" } }), []); // false
 * ```
 */
export function originAllowed(request: Request, allowedOrigins: readonly string[] = []): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) return true;
  if (allowedOrigins.includes(origin)) return true;
  if (!URL.canParse(origin)) return false;
  const url = new URL(origin);
  return (url.protocol === "http:" || url.protocol === "https:") && LOOPBACK_HOSTS.has(url.hostname);
}

/**
 * True when the request carries `Authorization: Bearer <token>`, compared in
 * constant time so the answer's timing does not leak the token.
 *
 * @example
 * ```ts
 * import { bearerMatches } from "./request_guard.ts";
 * bearerMatches(new Request("http://127.0.0.1/mcp", { headers: { authorization: "Bearer s3cret" } }), "s3cret"); // true
 * ```
 */
export function bearerMatches(request: Request, token: string): boolean {
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer\s+(.+)$/i.exec(header);
  if (!match || token.length === 0) return false;
  const given = new TextEncoder().encode(match[1].trim());
  const expected = new TextEncoder().encode(token);
  let diff = given.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) diff |= expected[i] ^ (given[i] ?? 0);
  return diff === 0;
}
