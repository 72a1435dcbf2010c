function ipv4Parts(text: string): number[] | undefined {
  const parts = text.split(".");
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return undefined;
  return parts.map(Number);
}

function isPublicIpv4([a, b, c]: number[]): boolean {
  return !(
    a === 0 || a === 10 || a === 127 || a >= 224 || // this network, private, loopback, multicast, reserved
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local, cloud metadata
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && c === 0) || // IETF protocol assignments
    (a === 198 && (b === 18 || b === 19)) // benchmarking
  );
}

function ipv6Words(text: string): number[] | undefined {
  let head = text;
  let tail = "";
  const dotted = /:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  let v4: number[] | undefined;
  if (dotted) {
    v4 = ipv4Parts(dotted[1]);
    if (!v4) return undefined;
    head = text.slice(0, dotted.index + 1) + "0:0";
  }
  [head, tail = ""] = head.split("::");
  const parse = (
    s: string,
  ) => (s ? s.split(":").map((w) => (/^[0-9a-f]{1,4}$/i.test(w) ? parseInt(w, 16) : NaN)) : []);
  const left = parse(head);
  const right = parse(tail);
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (!text.includes("::") && missing !== 0)) return undefined;
  const words = [...left, ...Array(missing).fill(0), ...right];
  if (words.some(Number.isNaN)) return undefined;
  if (v4) [words[6], words[7]] = [v4[0] * 256 + v4[1], v4[2] * 256 + v4[3]];
  return words;
}

function isPublicIpv6(w: number[]): boolean {
  const v4 = [w[6] >> 8, w[6] & 255, w[7] >> 8, w[7] & 255];
  if (w.slice(0, 5).every((x) => x === 0) && w[5] === 0xffff) return isPublicIpv4(v4); // IPv4-mapped
  if (w[0] === 0x64 && w[1] === 0xff9b) return isPublicIpv4(v4); // NAT64
  if (w.slice(0, 7).every((x) => x === 0)) return false; // :: and ::1
  return !((w[0] & 0xfe00) === 0xfc00 || (w[0] & 0xffc0) === 0xfe80 || (w[0] & 0xff00) === 0xff00);
}

/**
 * Whether an IP address literal is a public unicast address. Loopback,
 * private, link-local, carrier-grade NAT, multicast and reserved ranges are
 * not, nor are IPv4 addresses wrapped in IPv6 that fall in those ranges.
 * Returns undefined for text that is not an IP address.
 *
 * @example
 * ```ts
 * isPublicAddress("127.0.0.1"); // false
 * isPublicAddress("93.184.216.34"); // true
 * isPublicAddress("example.com"); // undefined
 * ```
 */
export function isPublicAddress(address: string): boolean | undefined {
  const bare = address.replace(/^\[|\]$/g, "");
  const v4 = ipv4Parts(bare);
  if (v4) return isPublicIpv4(v4);
  const v6 = bare.includes(":") ? ipv6Words(bare.replace(/%.*$/, "")) : undefined;
  return v6 ? isPublicIpv6(v6) : undefined;
}

/**
 * The default policy for `host_http_request`: the URL's host must be a
 * public address, or a name whose every A/AAAA record is one. `localhost`
 * and names that do not resolve are refused.
 */
export async function isPublicHost(url: URL): Promise<boolean> {
  const host = url.hostname.toLowerCase();
  const literal = isPublicAddress(host);
  if (literal !== undefined) return literal;
  if (host === "localhost" || host.endsWith(".localhost")) return false;
  const lookups = await Promise.allSettled([Deno.resolveDns(host, "A"), Deno.resolveDns(host, "AAAA")]);
  const addresses = lookups.flatMap((r) => (r.status === "fulfilled" ? r.value : []));
  return addresses.length > 0 && addresses.every((a) => isPublicAddress(a) === true);
}
