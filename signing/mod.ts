/**
 * Signed plugins: an Ed25519 signature (WebCrypto) over the plugin's tree
 * hash, in a detached `cortex.sig` at the root of the plugin folder, checked
 * against the keys the person trusts in `<home>/trusted_keys.json`. The CLI's
 * `cortex plugins sign` and `verify` call {@link signTree} and
 * {@link verifyTree}; the runtime takes {@link createSignatureVerifier}.
 *
 * The signed hash is the runtime's tree hash (`runtime/hash.ts`) over every
 * file except `cortex.sig` itself; the message signed is
 * `cortex-tree-v1:<that hash>`.
 *
 * @example
 * ```ts ignore
 * import { createSignatureVerifier, generateKeyPair, signTree, trustKey, verifyTree, readTrustedKeys } from "./mod.ts";
 *
 * const key = await generateKeyPair();                       // keep key.privateKey secret
 * await signTree("./my-plugin", key);                          // writes ./my-plugin/cortex.sig
 * await trustKey("/home/me/.cortex/trusted_keys.json", key.publicKey, { name: "me" });
 * const verdict = await verifyTree("./my-plugin", await readTrustedKeys("/home/me/.cortex/trusted_keys.json"));
 * console.log(verdict.ok, verdict.reason);                     // true "signed by me (…)"
 * const verifySignature = createSignatureVerifier("/home/me/.cortex/trusted_keys.json");
 * ```
 *
 * @module
 */
export {
  fromBase64,
  generateKeyPair,
  importPrivateKey,
  importPublicKey,
  keyIdOf,
  type KeyPair,
  parseKeyPair,
  toBase64,
} from "./key_pair.ts";
export { SIGNATURE_FILE, signedMessage, type TreeHashes, treeHashes } from "./tree_hashes.ts";
export { readSignatureFile, type SignatureFile, writeSignatureFile } from "./signature_file.ts";
export { signTree, type SignTreeOptions } from "./sign_tree.ts";
export { type Verdict, verifyTree, type VerifyTreeOptions } from "./verify_tree.ts";
export { readTrustedKeys, type TrustedKey, trustKey, untrustKey } from "./trusted_keys.ts";
export { createSignatureVerifier } from "./signature_verifier.ts";
