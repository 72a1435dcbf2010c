/**
 * Which network grants a sandboxed plugin may use. Deno's `--allow-net`
 * list already refuses every host not on it, so loopback and private
 * addresses are refused unless the person granted that exact host. On top of
 * that, a grant that could reach the runtime's own HTTP port is dropped even
 * when the person gave it: a plugin never talks to the daemon that runs it.
 *
 * @module
 */

/** A grant that was not used, and why. */
export interface RefusedGrant {
  /** The grant as given. */
  grant: string;
  /** Why it was dropped. */
  reason: string;
}

/** Options for {@link filterNetGrants}. */
export interface NetGrantOptions {
  /** Ports of the runtime's own HTTP API on this machine; never reachable. */
  daemonPorts?: readonly number[];
}

const HOSTNAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const IPV6 = /^\[[0-9A-Fa-f:.]{2,45}\]$/;

/** Splits `host[:port]` (IPv6 in brackets); undefined when malformed. */
export function parseHostGrant(grant: string): { host: string; port?: number } | undefined {
  const m = /^(\[[^\]]+\]|[^:\[\]]+)(?::(\d{1,5}))?$/.exec(grant);
  if (!m) return undefined;
  const host = m[1];
  const port = m[2] === undefined ? undefined : Number(m[2]);
  if (port !== undefined && (port < 1 || port > 65535)) return undefined;
  const v4 = IPV4.exec(host);
  if (v4 && v4.slice(1).some((o) => Number(o) > 255)) return undefined;
  if (!v4 && !IPV6.test(host) && !HOSTNAME.test(host)) return undefined;
  return { host: host.toLowerCase(), port };
}

/** Whether `host` names this machine (loopback or the unspecified address). */
export function isLocalHost(host: string): boolean {
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (/^127\./.test(host) || host === "0.0.0.0") return true;
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "::1" || bare === "::" || bare === "0:0:0:0:0:0:0:1" || bare.startsWith("::ffff:127.");
}

/**
 * Keeps the well-formed grants that cannot reach the daemon. A grant on this
 * machine with no port would include the daemon's port, so it is dropped
 * whenever daemon ports are known.
 *
 * @example
 * ```ts
 * import { filterNetGrants } from "./net_grants.ts";
 * const { hosts } = filterNetGrants(["api.example.com:443", "127.0.0.1:8787"], { daemonPorts: [8787] });
 * // hosts = ["api.example.com:443"]
 * ```
 */
export function filterNetGrants(
  grants: readonly string[],
  options: NetGrantOptions = {},
): { hosts: string[]; refused: RefusedGrant[] } {
  const hosts: string[] = [];
  const refused: RefusedGrant[] = [];
  const daemonPorts = options.daemonPorts ?? [];
  for (const grant of grants) {
    const parsed = parseHostGrant(grant.trim());
    if (!parsed) {
      refused.push({ grant, reason: "not a host[:port]" });
      continue;
    }
    if (isLocalHost(parsed.host) && daemonPorts.length > 0) {
      if (parsed.port === undefined || daemonPorts.includes(parsed.port)) {
        refused.push({ grant, reason: "it could reach the runtime's own HTTP API" });
        continue;
      }
    }
    const normalized = parsed.port === undefined ? parsed.host : `${parsed.host}:${parsed.port}`;
    if (!hosts.includes(normalized)) hosts.push(normalized);
  }
  return { hosts, refused };
}
