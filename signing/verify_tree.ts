/**
 * `cortex plugins verify`, and the check behind trust level `signed`: the
 * tree's files still hash to the signed tree hash, the key is one the person
 * trusts, and the Ed25519 signature verifies under the trusted copy of it.
 *
 * @module
 */
import { toCortexError } from "../runtime/errors.ts";
import { fromBase64, importPublicKey } from "./key_pair.ts";
import { readSignatureFile } from "./signature_file.ts";
import { signedMessage, treeHashes } from "./tree_hashes.ts";
import type { TrustedKey } from "./trusted_keys.ts";

/** The outcome of a check. */
export interface Verdict {
  /** Whether the signature is valid and made by a trusted key. */
  ok: boolean;
  /** Why not, or who signed. */
  reason: string;
  /** The signing key's id, when the signature file could be read. */
  keyId?: string;
  /** The tree hash over every file (the row's `tree_hash`). */
  treeHash?: string;
}

/** Options for {@link verifyTree}. */
export interface VerifyTreeOptions {
  /** The full tree hash the files must have (an install plan's or a row's), binding what is checked to what is installed. */
  treeHash?: string;
}

/**
 * Checks the signature of the plugin in `dir` against `trusted`.
 *
 * @example
 * ```ts ignore
 * import { readTrustedKeys, verifyTree } from "./mod.ts";
 * const verdict = await verifyTree("./my-plugin", await readTrustedKeys("/home/me/.cortex/trusted_keys.json"));
 * console.log(verdict.ok, verdict.reason);
 * ```
 */
export async function verifyTree(
  dir: string,
  trusted: readonly TrustedKey[],
  options: VerifyTreeOptions = {},
): Promise<Verdict> {
  try {
    const sig = await readSignatureFile(dir);
    const hashes = await treeHashes(dir);
    const base = { keyId: sig.keyId, treeHash: hashes.full };
    if (options.treeHash !== undefined && options.treeHash !== hashes.full) {
      return { ok: false, reason: "its files changed after the install plan was made", ...base };
    }
    if (hashes.signed !== sig.treeHash) {
      return {
        ok: false,
        reason: "its files do not match the signed tree hash (changed after signing)",
        ...base,
      };
    }
    const key = trusted.find((k) => k.keyId === sig.keyId);
    if (!key) {
      return { ok: false, reason: `it is signed by key ${sig.keyId}, which is not a trusted key`, ...base };
    }
    const publicKey = await importPublicKey(key.publicKey);
    const valid = await crypto.subtle.verify(
      { name: "Ed25519" },
      publicKey,
      fromBase64(sig.signature),
      signedMessage(sig.treeHash),
    );
    if (!valid) {
      return { ok: false, reason: `its signature does not verify under trusted key ${sig.keyId}`, ...base };
    }
    return { ok: true, reason: `signed by ${key.name || "a trusted key"} (${key.keyId})`, ...base };
  } catch (error) {
    return { ok: false, reason: toCortexError(error, "signature_invalid").message };
  }
}
