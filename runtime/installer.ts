/**
 * Install: read and check the manifest, check dependencies and hashes,
 * stage a copy of the files, and make the row and the files appear
 * together. A failure at any step leaves nothing behind.
 *
 * @module
 */
import { join } from "node:path";
import { type Manifest, PLUGIN_NAME_PATTERN } from "../manifest/schema.ts";
import { isUrlEntryPoint, readManifest, resolveEntryFile } from "../manifest/read_manifest.ts";
import { copyTree, removeIfExists } from "./copy_tree.ts";
import { checkDependencies } from "./dependencies.ts";
import { CortexError } from "./errors.ts";
import { hashFile, hashTree, normalizeHash, sha256Hex } from "./hash.ts";
import type { HomeLayout } from "./home.ts";
import { inTransaction, type PluginRow, type Store, type TrustLevel } from "./store/mod.ts";

/** What an install is about to do, shown to the person before anything runs. */
export interface InstallPlan {
  /** The manifest. */
  manifest: Manifest;
  /** The folder installed from. */
  sourceDir: string;
  /** The entry file inside it, when the entry point is a file. */
  entryFile: string | undefined;
  /** SHA-256 of the entry file (or of the URL text for URL entry points). */
  integrityHash: string;
  /** SHA-256 over the whole tree. */
  treeHash: string;
  /** The trust level it will get. */
  trust: TrustLevel;
  /** Where its code will run. */
  runsIn: string;
}

/** Checks that the signature of a plugin tree is valid and made by a trusted key. */
export type SignatureVerifier = (plan: InstallPlan) => Promise<{ ok: boolean; reason: string }>;

/** Where a plugin of this kind and trust runs, in words. */
export function describeRunsIn(kind: string, trust: TrustLevel): string {
  switch (kind) {
    case "esm":
      return trust === "trusted"
        ? "in the host process (trusted)"
        : "in a permission-restricted sandbox Worker";
    case "wasm":
      return "in its own WebAssembly Worker";
    case "mcp":
      return "as an MCP server the runtime connects to";
    case "module":
      return "as a supervised child process speaking cortexfs.module.socket/v1";
    default:
      return "unknown";
  }
}

/** Builds the install plan for `sourceDir` without changing anything. */
export async function planInstall(
  sourceDir: string,
  options: { trust: TrustLevel; store: Store },
): Promise<InstallPlan> {
  const { manifest, dir } = await readManifest(sourceDir);
  if (!PLUGIN_NAME_PATTERN.test(manifest.name)) {
    throw new CortexError("manifest_invalid", `name "${manifest.name}" is not kebab-case`);
  }
  let entryFile: string | undefined;
  let integrityHash: string;
  if (isUrlEntryPoint(manifest.entryPoint)) {
    if (manifest.kind !== "mcp") {
      throw new CortexError(
        "manifest_invalid",
        `entryPoint: a ${manifest.kind} plugin's entry point must be a file inside the plugin folder (remote code is refused)`,
      );
    }
    integrityHash = await sha256Hex(new TextEncoder().encode(manifest.entryPoint));
  } else {
    entryFile = await resolveEntryFile(dir, manifest.entryPoint);
    integrityHash = await hashFile(entryFile);
  }
  if (manifest.hash !== undefined && normalizeHash(manifest.hash) !== integrityHash) {
    throw new CortexError(
      "hash_mismatch",
      `the manifest's hash does not match ${manifest.entryPoint} (expected ${
        normalizeHash(manifest.hash)
      }, found ${integrityHash})`,
    );
  }
  if (options.store.plugins.get(manifest.name)) {
    throw new CortexError("plugin_exists", `a plugin named ${manifest.name} is already installed`);
  }
  checkDependencies(manifest, options.store.plugins.list());
  const treeHash = await hashTree(dir);
  return {
    manifest,
    sourceDir: dir,
    entryFile,
    integrityHash,
    treeHash,
    trust: options.trust,
    runsIn: describeRunsIn(manifest.kind, options.trust),
  };
}

/**
 * Carries out a plan: stages a copy, re-checks its hashes, then inserts the
 * row and moves the files into place in one transaction.
 */
export async function commitInstall(
  plan: InstallPlan,
  options: { store: Store; home: HomeLayout; verifySignature?: SignatureVerifier },
): Promise<PluginRow> {
  const { store, home } = options;
  const name = plan.manifest.name;
  if (plan.trust === "signed") {
    if (!options.verifySignature) {
      throw new CortexError("signature_invalid", "signature checking is not available in this runtime");
    }
    const verdict = await options.verifySignature(plan);
    if (!verdict.ok) throw new CortexError("signature_invalid", verdict.reason);
  }
  const staging = join(home.stagingDir, crypto.randomUUID());
  const stagedCode = join(staging, "code");
  const finalDir = join(home.pluginsDir, name);
  const dataDir = join(home.pluginDataDir, name);
  let moved = false;
  try {
    await copyTree(plan.sourceDir, stagedCode);
    const stagedTree = await hashTree(stagedCode);
    if (stagedTree !== plan.treeHash) {
      throw new CortexError(
        "integrity_failed",
        `the files of ${name} changed while they were being installed`,
      );
    }
    const now = new Date().toISOString();
    const m = plan.manifest;
    const row: PluginRow = {
      name,
      version: m.version,
      type: m.kind,
      runtime: m.runtime,
      entry: m.entryPoint,
      manifest_json: JSON.stringify(m),
      declared_permissions: m.capabilities.join(","),
      effective_permissions: m.capabilities.join(","),
      author: m.author ?? null,
      description: m.description,
      license: m.license ?? null,
      source: plan.sourceDir,
      integrity_hash: plan.integrityHash,
      enabled: 1,
      status: "unloaded",
      trust_level: plan.trust,
      error_message: null,
      load_attempts: 0,
      installed_at: now,
      updated_at: now,
      last_load_at: null,
      dependencies_json: JSON.stringify({
        dependencies: m.dependencies ?? {},
        peerDependencies: m.peerDependencies ?? {},
      }),
      config_schema_json: m.ui?.settings ? JSON.stringify(m.ui.settings) : null,
      tree_hash: plan.treeHash,
      install_hook_ran: 0,
      timeout_ms: null,
    };
    if (store.plugins.get(name)) {
      throw new CortexError("plugin_exists", `a plugin named ${name} is already installed`);
    }
    await clearOrphan(finalDir, name);
    await Deno.rename(stagedCode, finalDir);
    moved = true;
    await Deno.mkdir(dataDir, { recursive: true, mode: 0o700 });
    inTransaction(store.db, () => store.plugins.insert(row));
    return row;
  } catch (error) {
    if (moved) {
      await removeIfExists(finalDir);
      await removeIfExists(dataDir);
    }
    throw error;
  } finally {
    await removeIfExists(staging);
  }
}

/** How old a code folder without a row must be before install treats it as a crash's leftover. */
const ORPHAN_AGE_MS = 60_000;

/**
 * A code folder with no row is what a crash between moving files and
 * inserting the row leaves: the row is the truth, so an old one is cleared.
 * A fresh one may be another process's install in flight, and is left alone.
 */
async function clearOrphan(finalDir: string, name: string): Promise<void> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(finalDir);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  const age = Date.now() - (info.mtime?.getTime() ?? 0);
  if (age < ORPHAN_AGE_MS) {
    throw new CortexError("plugin_exists", `${name} is being installed by another process`);
  }
  await removeIfExists(finalDir);
}
