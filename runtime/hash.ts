import { join } from "node:path";
import { CortexError } from "./errors.ts";

/** Folders never copied, hashed or installed. */
export const IGNORED_DIRS: ReadonlySet<string> = new Set([".git", "node_modules"]);

/** Hex SHA-256 of some bytes. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Hex SHA-256 of a file's bytes. */
export async function hashFile(path: string): Promise<string> {
  return await sha256Hex(await Deno.readFile(path));
}

/**
 * Lists the regular files below `dir` as sorted relative paths (`/`
 * separated). A symbolic link or other special file is refused: a plugin
 * folder holds plain files only, so nothing installed can point outside it.
 */
export async function listTreeFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(rel: string): Promise<void> {
    for await (const entry of Deno.readDir(join(dir, rel))) {
      const child = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isSymlink) {
        throw new CortexError(
          "manifest_invalid",
          `the plugin folder holds a symbolic link (${child}); plugins hold plain files only`,
        );
      }
      if (entry.isDirectory) {
        if (!IGNORED_DIRS.has(entry.name)) await walk(child);
      } else if (entry.isFile) {
        out.push(child);
      }
    }
  }
  await walk("");
  return out.sort();
}

/**
 * The tree hash: SHA-256 over `path NUL sha256(file) LF` for every file in
 * byte order. Signatures are made over this value.
 */
export async function hashTree(dir: string): Promise<string> {
  const lines: string[] = [];
  for (const rel of await listTreeFiles(dir)) {
    lines.push(`${rel}\0${await hashFile(join(dir, rel))}\n`);
  }
  return await sha256Hex(new TextEncoder().encode(lines.join("")));
}

/** Normalizes a manifest `hash` (`sha256-<hex>`, `sha256:<hex>` or `<hex>`) to lowercase hex. */
export function normalizeHash(hash: string): string {
  return hash.replace(/^sha256[-:]/, "").toLowerCase();
}
