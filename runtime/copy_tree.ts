import { dirname, join } from "node:path";
import { listTreeFiles } from "./hash.ts";

/** Copies the plain files of `from` into `to` (created), skipping ignored folders. */
export async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true, mode: 0o700 });
  for (const rel of await listTreeFiles(from)) {
    const target = join(to, rel);
    await Deno.mkdir(dirname(target), { recursive: true, mode: 0o700 });
    await Deno.copyFile(join(from, rel), target);
  }
}

/** Removes a path if it exists. */
export async function removeIfExists(path: string): Promise<void> {
  try {
    await Deno.remove(path, { recursive: true });
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}
