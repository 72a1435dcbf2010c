/**
 * The keys the person trusts for signed plugins: `<home>/trusted_keys.json`,
 * `{ "keys": [{ "keyId", "publicKey", "name", "addedAt" }] }`. Read fresh at
 * every check, written atomically (owner-only).
 *
 * @module
 */
import { dirname } from "node:path";
import { z } from "zod";
import { CortexError } from "../runtime/errors.ts";
import { importPublicKey, keyIdOf } from "./key_pair.ts";

/** One trusted key. */
export interface TrustedKey {
  /** Its id (first 16 hex digits of SHA-256 over the raw key). */
  keyId: string;
  /** The raw Ed25519 public key, base64. */
  publicKey: string;
  /** Whose key it is, in the person's words. */
  name: string;
  /** When it was added (ISO time). */
  addedAt: string;
}

const fileSchema = z.strictObject({
  keys: z.array(z.strictObject({
    keyId: z.string().regex(/^[0-9a-f]{16}$/),
    publicKey: z.string().min(1),
    name: z.string(),
    addedAt: z.string(),
  })),
});

/**
 * The trusted keys in `path` (none when the file does not exist).
 *
 * @throws {CortexError} `signature_invalid` when the file is malformed.
 */
export async function readTrustedKeys(path: string): Promise<TrustedKey[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw new CortexError("signature_invalid", `cannot read ${path}: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new CortexError("signature_invalid", `${path} is not JSON`);
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) {
    throw new CortexError(
      "signature_invalid",
      `${path} must hold { "keys": [{ keyId, publicKey, name, addedAt }] }`,
    );
  }
  return parsed.data.keys;
}

async function writeTrustedKeys(path: string, keys: TrustedKey[]): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.writeTextFile(tmp, JSON.stringify({ keys }, null, 2) + "\n", { mode: 0o600 });
    await Deno.rename(tmp, path);
  } catch (error) {
    await Deno.remove(tmp).catch(() => {});
    throw error;
  }
}

/**
 * Adds a public key to the trusted keys (replacing one with the same id).
 *
 * @example
 * ```ts ignore
 * import { generateKeyPair } from "./key_pair.ts";
 * import { trustKey } from "./trusted_keys.ts";
 * const pair = await generateKeyPair();
 * await trustKey("/home/me/.cortex/trusted_keys.json", pair.publicKey, { name: "release key" });
 * ```
 * @throws {CortexError} `signature_invalid` when the key is not an Ed25519 public key.
 */
export async function trustKey(
  path: string,
  publicKey: string,
  options: { name?: string } = {},
): Promise<TrustedKey> {
  await importPublicKey(publicKey);
  const key: TrustedKey = {
    keyId: await keyIdOf(publicKey),
    publicKey,
    name: options.name ?? "",
    addedAt: new Date().toISOString(),
  };
  const keys = (await readTrustedKeys(path)).filter((k) => k.keyId !== key.keyId);
  await writeTrustedKeys(path, [...keys, key]);
  return key;
}

/** Removes a key by id; returns whether it was there. */
export async function untrustKey(path: string, keyId: string): Promise<boolean> {
  const keys = await readTrustedKeys(path);
  const kept = keys.filter((k) => k.keyId !== keyId);
  if (kept.length === keys.length) return false;
  await writeTrustedKeys(path, kept);
  return true;
}
