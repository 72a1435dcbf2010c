import { timingSafeEqual } from "node:crypto";

/**
 * Reads the daemon token at `path`, creating it (32 random bytes, hex,
 * owner-only) when missing or empty.
 */
export async function ensureToken(path: string): Promise<string> {
  try {
    const existing = (await Deno.readTextFile(path)).trim();
    if (/^[0-9a-f]{64}$/.test(existing)) {
      await Deno.chmod(path, 0o600);
      return existing;
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const token = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  await Deno.writeTextFile(path, token + "\n", { mode: 0o600 });
  await Deno.chmod(path, 0o600);
  return token;
}

/** Compares a presented bearer header with the token in constant time. */
export function tokenMatches(header: string | undefined, token: string): boolean {
  if (!header?.startsWith("Bearer ")) return false;
  const presented = new TextEncoder().encode(header.slice("Bearer ".length).trim());
  const expected = new TextEncoder().encode(token);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}
