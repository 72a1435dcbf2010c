import { isPublicHost } from "./address_policy.ts";

/** A request from a plugin's `host_http_request`. */
export interface PluginHttpRequest {
  /** HTTP method. */
  method: string;
  /** Absolute http(s) URL. */
  url: string;
  /** Request body, if any. */
  body: Uint8Array | null;
  /** JSON object of header names to string values, if any. */
  headers: string | null;
}

/** What the host does with such a request. */
export interface PluginHttpPolicy {
  /** Whether the plugin may use the network at all. */
  allowNetwork: boolean;
  /** Replaces the default address policy when given. */
  isHostAllowed?: (url: URL) => boolean | Promise<boolean>;
  /** Deadline of the whole request, redirects included. */
  timeoutMs: number;
  /** Largest response body. */
  maxResponseBytes: number;
  /** Aborts the request (the plugin's Worker went away). */
  signal?: AbortSignal;
}

/** The outcome: a real response, a refusal, or a failure with a short reason. */
export type PluginHttpOutcome =
  | { kind: "response"; status: number; body: Uint8Array }
  | { kind: "denied"; reason: string }
  | { kind: "failed"; reason: string };

const MAX_REDIRECTS = 5;

async function allowed(url: URL, policy: PluginHttpPolicy): Promise<string | undefined> {
  if (url.protocol !== "http:" && url.protocol !== "https:") return "only http and https URLs are allowed";
  const ok = policy.isHostAllowed ? await policy.isHostAllowed(url) : await isPublicHost(url);
  return ok ? undefined : `requests to ${url.hostname} are not allowed`;
}

function parseHeaders(text: string | null): Headers | undefined {
  if (!text) return new Headers();
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
    const entries = Object.entries(value);
    if (entries.some(([, v]) => typeof v !== "string")) return undefined;
    return new Headers(entries as [string, string][]);
  } catch {
    return undefined;
  }
}

async function readCapped(response: Response, max: number): Promise<Uint8Array | undefined> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (response.body) {
    for await (const chunk of response.body) {
      total += chunk.length;
      if (total > max) return undefined; // leaving the loop cancels the stream
      chunks.push(chunk);
    }
  }
  const body = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.length;
  }
  return body;
}

/**
 * Performs a plugin's HTTP request on the main thread under `policy`:
 * network granted, every URL (redirects too) allowed by the address policy,
 * a deadline, and a cap on the response size. Returns the real status.
 *
 * @example
 * ```ts
 * const outcome = await pluginFetch(
 *   { method: "GET", url: "https://example.com/", body: null, headers: null },
 *   { allowNetwork: true, timeoutMs: 5000, maxResponseBytes: 1 << 20 },
 * );
 * ```
 */
export async function pluginFetch(
  request: PluginHttpRequest,
  policy: PluginHttpPolicy,
): Promise<PluginHttpOutcome> {
  if (!policy.allowNetwork) return { kind: "denied", reason: "network access is not granted to this plugin" };
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return { kind: "failed", reason: "the URL is not valid" };
  }
  const headers = parseHeaders(request.headers);
  if (!headers) return { kind: "failed", reason: "headers must be a JSON object of strings" };
  let method = request.method.toUpperCase();
  let body = method === "GET" || method === "HEAD" ? null : request.body as Uint8Array<ArrayBuffer> | null;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), policy.timeoutMs);
  const signal = policy.signal ? AbortSignal.any([deadline.signal, policy.signal]) : deadline.signal;
  try {
    for (let hop = 0;; hop++) {
      const refusal = await allowed(url, policy);
      if (refusal) return { kind: "denied", reason: refusal };
      const response = await fetch(url, { method, headers, body, redirect: "manual", signal });
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location && hop < MAX_REDIRECTS) {
        await response.body?.cancel();
        url = new URL(location, url);
        if (response.status === 303) [method, body] = ["GET", null];
        continue;
      }
      const data = await readCapped(response, policy.maxResponseBytes);
      if (!data) {
        return { kind: "failed", reason: `the response is larger than ${policy.maxResponseBytes} bytes` };
      }
      return { kind: "response", status: response.status, body: data };
    }
  } catch {
    if (deadline.signal.aborted) {
      return { kind: "failed", reason: `the request did not finish within ${policy.timeoutMs} ms` };
    }
    // The engine's message names the URL, which may carry a token: keep it out.
    return { kind: "failed", reason: "the connection failed or the response could not be read" };
  } finally {
    clearTimeout(timer);
  }
}
