import { isAbsolute, join, relative, resolve } from "node:path";
import { CortexError } from "../runtime/errors.ts";
import { formatIssues } from "./format_issues.ts";
import { type Manifest, manifestSchema } from "./schema.ts";

/** The names a manifest may have, in the order they are tried. */
export const MANIFEST_FILE_NAMES: readonly string[] = ["manifest.json", "cortex.json"];

/** A manifest read from a folder, with where it came from. */
export interface ManifestFile {
  /** The parsed manifest. */
  manifest: Manifest;
  /** Absolute path of the manifest file. */
  path: string;
  /** Absolute path of the folder the manifest sits in. */
  dir: string;
}

/**
 * Reads and validates the manifest in `dir`: `manifest.json` first,
 * `cortex.json` as a fallback.
 *
 * @example
 * ```ts ignore
 * const { manifest } = await readManifest("./examples/hello");
 * ```
 * @throws {CortexError} `manifest_missing`, `manifest_not_json` or `manifest_invalid`.
 */
export async function readManifest(dir: string): Promise<ManifestFile> {
  const absDir = resolve(dir);
  for (const name of MANIFEST_FILE_NAMES) {
    const path = join(absDir, name);
    let text: string;
    try {
      text = await Deno.readTextFile(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue;
      if (error instanceof Deno.errors.IsADirectory) continue;
      throw new CortexError("manifest_missing", `cannot read ${path}: ${(error as Error).message}`);
    }
    return { manifest: parseManifest(text, { source: name }), path, dir: absDir };
  }
  throw new CortexError(
    "manifest_missing",
    `no manifest.json or cortex.json in ${absDir}`,
  );
}

/** Options for {@link parseManifest}. */
export interface ParseManifestOptions {
  /** Named in error messages, such as `manifest.json`. */
  source?: string;
}

/**
 * Parses manifest text. Errors name every bad field and what was expected.
 *
 * @example
 * ```ts
 * import { parseManifest } from "./read_manifest.ts";
 * const m = parseManifest(JSON.stringify({
 *   name: "hello", version: "1.0.0", description: "Says hello", kind: "esm",
 *   entryPoint: "mod.ts", runtime: "deno", capabilities: ["tools"],
 * }));
 * ```
 */
export function parseManifest(text: string, options: ParseManifestOptions = {}): Manifest {
  const source = options.source ?? "manifest";
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new CortexError(
      "manifest_not_json",
      `${source} is not valid JSON: ${(error as Error).message}`,
    );
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new CortexError("manifest_invalid", `${source} must be a JSON object`);
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) {
    throw new CortexError(
      "manifest_invalid",
      `${source} is invalid: ${formatIssues(parsed.error.issues, raw).join("; ")}`,
    );
  }
  return parsed.data;
}

/** Whether an entry point is a URL (`http:`, `https:`, `npm:`, ...), not a file path. */
export function isUrlEntryPoint(entryPoint: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(entryPoint) && !/^[a-z]:[\\/]/i.test(entryPoint);
}

/**
 * Resolves a file entry point against the manifest's folder and checks that
 * it stays inside that folder (symbolic links included) and exists.
 *
 * @throws {CortexError} `entry_outside` or `entry_missing`.
 */
export async function resolveEntryFile(dir: string, entryPoint: string): Promise<string> {
  const absDir = await Deno.realPath(resolve(dir));
  const candidate = resolve(absDir, entryPoint);
  if (!isInside(absDir, candidate)) {
    throw new CortexError(
      "entry_outside",
      `entryPoint "${entryPoint}" resolves outside the plugin folder`,
    );
  }
  let real: string;
  try {
    real = await Deno.realPath(candidate);
  } catch {
    throw new CortexError("entry_missing", `entryPoint "${entryPoint}" does not exist in ${absDir}`);
  }
  if (!isInside(absDir, real)) {
    throw new CortexError(
      "entry_outside",
      `entryPoint "${entryPoint}" links to a file outside the plugin folder`,
    );
  }
  const info = await Deno.stat(real);
  if (!info.isFile) {
    throw new CortexError("entry_missing", `entryPoint "${entryPoint}" is not a file`);
  }
  return real;
}

/** Whether `path` is `dir` itself or below it. */
export function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}
