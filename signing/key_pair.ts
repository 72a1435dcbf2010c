/**
 * Ed25519 key pairs (WebCrypto) for signing plugin trees, in a small JSON
 * form the CLI writes to a key file and the person keeps private.
 *
 * @module
 */
import { z } from "zod";
import { sha256Hex } from "../runtime/hash.ts";
import { CortexError } from "../runtime/errors.ts";

/** A key pair as stored in a key file (the private key is secret). */
export interface KeyPair {
  /** Always `cortex-key-v1`. */
  format: "cortex-key-v1";
  /** Always `Ed25519`. */
  algorithm: "Ed25519";
  /** The key's id: the first 16 hex digits of SHA-256 over the raw public key. */
  keyId: string;
  /** The raw 32-byte public key, base64. */
  publicKey: string;
  /** The PKCS#8 private key, base64. */
  privateKey: string;
}

/** The schema of a key file. */
export const keyPairSchema: z.ZodType<KeyPair> = z.strictObject({
  format: z.literal("cortex-key-v1"),
  algorithm: z.literal("Ed25519"),
  keyId: z.string().regex(/^[0-9a-f]{16}$/),
  publicKey: z.string().min(1),
  privateKey: z.string().min(1),
});

/** Base64 of some bytes. */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/**
 * Bytes of a base64 string.
 *
 * @throws {CortexError} `signature_invalid` when it is not base64.
 */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    throw new CortexError("signature_invalid", "a key or signature is not valid base64");
  }
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/**
 * The id of a public key (base64 raw): the first 16 hex digits of its SHA-256.
 *
 * @example
 * ```ts
 * import { generateKeyPair, keyIdOf } from "./key_pair.ts";
 * const pair = await generateKeyPair();
 * console.log((await keyIdOf(pair.publicKey)) === pair.keyId); // true
 * ```
 */
export async function keyIdOf(publicKey: string): Promise<string> {
  return (await sha256Hex(fromBase64(publicKey))).slice(0, 16);
}

/**
 * Generates a new Ed25519 key pair.
 *
 * @example
 * ```ts
 * import { generateKeyPair } from "./key_pair.ts";
 * const pair = await generateKeyPair();
 * console.log(pair.keyId, pair.publicKey);
 * ```
 */
export async function generateKeyPair(): Promise<KeyPair> {
  const keys = await crypto.subtle.generateKey({ name: "Ed25519" }, true, [
    "sign",
    "verify",
  ]) as CryptoKeyPair;
  const publicKey = toBase64(new Uint8Array(await crypto.subtle.exportKey("raw", keys.publicKey)));
  const privateKey = toBase64(new Uint8Array(await crypto.subtle.exportKey("pkcs8", keys.privateKey)));
  return {
    format: "cortex-key-v1",
    algorithm: "Ed25519",
    keyId: await keyIdOf(publicKey),
    publicKey,
    privateKey,
  };
}

/**
 * Parses a key file's text.
 *
 * @throws {CortexError} `signature_invalid` when it is not a key file.
 */
export function parseKeyPair(text: string): KeyPair {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new CortexError("signature_invalid", "the key file is not JSON");
  }
  const parsed = keyPairSchema.safeParse(raw);
  if (!parsed.success) {
    throw new CortexError("signature_invalid", "the key file is not a cortex-key-v1 Ed25519 key pair");
  }
  return parsed.data;
}

/** Imports a public key (base64 raw) for verifying. */
export async function importPublicKey(publicKey: string): Promise<CryptoKey> {
  try {
    return await crypto.subtle.importKey("raw", fromBase64(publicKey), { name: "Ed25519" }, false, [
      "verify",
    ]);
  } catch {
    throw new CortexError("signature_invalid", "the public key is not a valid Ed25519 key");
  }
}

/** Imports a private key (base64 PKCS#8) for signing. */
export async function importPrivateKey(privateKey: string): Promise<CryptoKey> {
  try {
    return await crypto.subtle.importKey("pkcs8", fromBase64(privateKey), { name: "Ed25519" }, false, [
      "sign",
    ]);
  } catch {
    throw new CortexError("signature_invalid", "the private key is not a valid Ed25519 key");
  }
}
