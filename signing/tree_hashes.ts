/**
 * The two hashes of a plugin tree, from one read of every file: the tree
 * hash the runtime records at install (`hashTree`: every file), and the
 * signed tree hash (every file but the detached signature `cortex.sig` at
 * the root). Reading once binds them: what is verified is what is installed.
 *
 * @module
 */
import { join } from "node:path";
import { hashFile, listTreeFiles, sha256Hex } from "../runtime/hash.ts";

/** The detached signature's file name, at the plugin folder's root. */
export const SIGNATURE_FILE = "cortex.sig";

/** Both hashes of a tree. */
export interface TreeHashes {
  /** Over every file: equals `hashTree(dir)` and the row's `tree_hash`. */
  full: string;
  /** Over every file except `cortex.sig`: what a signature covers. */
  signed: string;
}

/**
 * Hashes `dir` both ways (same line format as `runtime/hash.ts`).
 *
 * @example
 * ```ts ignore
 * import { treeHashes } from "./tree_hashes.ts";
 * const { full, signed } = await treeHashes("./examples/esm/hello");
 * ```
 */
export async function treeHashes(dir: string): Promise<TreeHashes> {
  const all: string[] = [];
  const signed: string[] = [];
  for (const rel of await listTreeFiles(dir)) {
    const line = `${rel}\0${await hashFile(join(dir, rel))}\n`;
    all.push(line);
    if (rel !== SIGNATURE_FILE) signed.push(line);
  }
  const encoder = new TextEncoder();
  return {
    full: await sha256Hex(encoder.encode(all.join(""))),
    signed: await sha256Hex(encoder.encode(signed.join(""))),
  };
}

/** The bytes an Ed25519 signature is made over: a fixed prefix and the signed tree hash. */
export function signedMessage(signedTreeHash: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(`cortex-tree-v1:${signedTreeHash}`);
}
