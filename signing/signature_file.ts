/**
 * The detached signature, `cortex.sig` at the root of a plugin folder:
 *
 * ```json
 * { "format": "cortex-signature-v1", "algorithm": "Ed25519", "keyId": "…16 hex…",
 *   "publicKey": "…base64…", "treeHash": "…64 hex…", "signature": "…base64…", "signedAt": "…" }
 * ```
 *
 * It is detached (not the manifest's `signature` field) because the manifest
 * is one of the signed files: a signature inside it would have to be cut out
 * of the JSON before hashing, and any reformatting would break it.
 *
 * @module
 */
import { join } from "node:path";
import { z } from "zod";
import { CortexError } from "../runtime/errors.ts";
import { SIGNATURE_FILE } from "./tree_hashes.ts";

/** A parsed `cortex.sig`. */
export interface SignatureFile {
  /** Always `cortex-signature-v1`. */
  format: "cortex-signature-v1";
  /** Always `Ed25519`. */
  algorithm: "Ed25519";
  /** The signing key's id. */
  keyId: string;
  /** The signing key (informational: trust comes from the trusted keys). */
  publicKey: string;
  /** The signed tree hash: every file but `cortex.sig`. */
  treeHash: string;
  /** The Ed25519 signature over `cortex-tree-v1:<treeHash>`, base64. */
  signature: string;
  /** When it was signed (ISO time). */
  signedAt: string;
}

const schema: z.ZodType<SignatureFile> = z.strictObject({
  format: z.literal("cortex-signature-v1"),
  algorithm: z.literal("Ed25519"),
  keyId: z.string().regex(/^[0-9a-f]{16}$/),
  publicKey: z.string().min(1).max(128),
  treeHash: z.string().regex(/^[0-9a-f]{64}$/),
  signature: z.string().min(1).max(256),
  signedAt: z.string().max(64),
});

/**
 * Reads `cortex.sig` from `dir`.
 *
 * @throws {CortexError} `signature_invalid` when it is missing or malformed.
 */
export async function readSignatureFile(dir: string): Promise<SignatureFile> {
  let text: string;
  try {
    text = await Deno.readTextFile(join(dir, SIGNATURE_FILE));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new CortexError("signature_invalid", `it has no ${SIGNATURE_FILE} signature file`);
    }
    throw new CortexError("signature_invalid", `cannot read ${SIGNATURE_FILE}: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new CortexError("signature_invalid", `${SIGNATURE_FILE} is not JSON`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new CortexError(
      "signature_invalid",
      `${SIGNATURE_FILE} is not a cortex-signature-v1 Ed25519 signature`,
    );
  }
  return parsed.data;
}

/** Writes `cortex.sig` into `dir`. */
export async function writeSignatureFile(dir: string, signature: SignatureFile): Promise<void> {
  await Deno.writeTextFile(join(dir, SIGNATURE_FILE), JSON.stringify(signature, null, 2) + "\n");
}
