/**
 * `cortex plugins sign`: signs a plugin folder with an Ed25519 key, writing
 * the detached signature `cortex.sig`. A tree that fails its own checks (no
 * valid manifest, an entry file that does not match the manifest's `hash`,
 * a symbolic link, files that differ from the tree hash the caller expects)
 * is never signed, and neither is a key the caller requires to be trusted
 * but is not.
 *
 * @module
 */
import { readManifest, resolveEntryFile } from "../manifest/read_manifest.ts";
import { CortexError } from "../runtime/errors.ts";
import { hashFile, normalizeHash } from "../runtime/hash.ts";
import { fromBase64, importPrivateKey, importPublicKey, type KeyPair, toBase64 } from "./key_pair.ts";
import { type SignatureFile, writeSignatureFile } from "./signature_file.ts";
import { signedMessage, treeHashes } from "./tree_hashes.ts";
import type { TrustedKey } from "./trusted_keys.ts";

/** Options for {@link signTree}. */
export interface SignTreeOptions {
  /** Refuse unless the files hash to this tree hash (every file but `cortex.sig`). */
  expectedTreeHash?: string;
  /** Refuse unless the key is one of these (the person's trusted keys). */
  requireTrusted?: readonly TrustedKey[];
}

/**
 * Signs the plugin in `dir` with `key` and writes `cortex.sig`.
 *
 * @example
 * ```ts ignore
 * import { generateKeyPair, signTree } from "./mod.ts";
 * const key = await generateKeyPair();
 * const sig = await signTree("./my-plugin", key);
 * console.log(sig.keyId, sig.treeHash);
 * ```
 * @throws {CortexError} `signature_invalid` when the tree or the key may not be signed with.
 */
export async function signTree(
  dir: string,
  key: KeyPair,
  options: SignTreeOptions = {},
): Promise<SignatureFile> {
  const { manifest, dir: root } = await readManifest(dir);
  const entry = await resolveEntryFile(root, manifest.entryPoint);
  if (manifest.hash !== undefined && normalizeHash(manifest.hash) !== (await hashFile(entry))) {
    throw new CortexError(
      "signature_invalid",
      `refusing to sign ${manifest.name}: its entry file does not match the manifest's hash (tampered?)`,
    );
  }
  const { signed } = await treeHashes(root);
  if (options.expectedTreeHash !== undefined && options.expectedTreeHash !== signed) {
    throw new CortexError(
      "signature_invalid",
      `refusing to sign ${manifest.name}: its files changed (tree hash ${signed}, expected ${options.expectedTreeHash})`,
    );
  }
  if (
    options.requireTrusted &&
    !options.requireTrusted.some((k) => k.keyId === key.keyId && k.publicKey === key.publicKey)
  ) {
    throw new CortexError(
      "signature_invalid",
      `refusing to sign with key ${key.keyId}: it is not a trusted key`,
    );
  }
  const privateKey = await importPrivateKey(key.privateKey);
  const message = signedMessage(signed);
  const signature = new Uint8Array(await crypto.subtle.sign({ name: "Ed25519" }, privateKey, message));
  // The key file's two halves must belong together, or the signature would verify under no key.
  const publicKey = await importPublicKey(key.publicKey);
  if (
    !(await crypto.subtle.verify({ name: "Ed25519" }, publicKey, fromBase64(toBase64(signature)), message))
  ) {
    throw new CortexError(
      "signature_invalid",
      "the key file's public and private keys do not belong together",
    );
  }
  const file: SignatureFile = {
    format: "cortex-signature-v1",
    algorithm: "Ed25519",
    keyId: key.keyId,
    publicKey: key.publicKey,
    treeHash: signed,
    signature: toBase64(signature),
    signedAt: new Date().toISOString(),
  };
  await writeSignatureFile(root, file);
  return file;
}
