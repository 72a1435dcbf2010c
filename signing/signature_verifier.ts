/**
 * The runtime's `SignatureVerifier` (see `runtime/installer.ts`), over the
 * trusted-keys file: give it to `Runtime.open({ verifySignature })` and to
 * `SandboxLoader({ verifySignature })` (which checks again at every load, so
 * a key the person stops trusting stops its plugins).
 *
 * @module
 */
import type { SignatureVerifier } from "../runtime/installer.ts";
import { readTrustedKeys } from "./trusted_keys.ts";
import { verifyTree } from "./verify_tree.ts";

/**
 * A verifier that reads `trustedKeysPath` fresh at every check.
 *
 * @example
 * ```ts ignore
 * import { Runtime } from "../runtime/runtime.ts";
 * import { homeLayout } from "../runtime/home.ts";
 * import { createSignatureVerifier } from "./mod.ts";
 * const home = "/home/me/.cortex";
 * const runtime = await Runtime.open({ home, verifySignature: createSignatureVerifier(homeLayout(home).trustedKeys) });
 * ```
 */
export function createSignatureVerifier(trustedKeysPath: string): SignatureVerifier {
  return async (plan) => {
    let trusted;
    try {
      trusted = await readTrustedKeys(trustedKeysPath);
    } catch (error) {
      return { ok: false, reason: (error as Error).message };
    }
    const verdict = await verifyTree(plan.sourceDir, trusted, { treeHash: plan.treeHash });
    return { ok: verdict.ok, reason: verdict.reason };
  };
}
