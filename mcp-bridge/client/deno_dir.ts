/**
 * Where Deno keeps its module and npm caches, so a sandboxed `deno run`
 * child started with a cleared environment finds the same cache as the host.
 *
 * @module
 */
import { join } from "node:path";

/**
 * The host's Deno cache folder, worked out the way Deno itself does:
 * `DENO_DIR`, else the platform's cache folder plus `deno`.
 *
 * @example
 * ```ts
 * import { denoDir } from "./deno_dir.ts";
 * const dir = denoDir((name) => Deno.env.get(name)); // "/home/me/.cache/deno" on Linux
 * ```
 */
export function denoDir(
  env: (name: string) => string | undefined,
  options: { os?: typeof Deno.build.os } = {},
): string | undefined {
  const explicit = env("DENO_DIR");
  if (explicit) return explicit;
  const os = options.os ?? Deno.build.os;
  if (os === "windows") {
    const local = env("LOCALAPPDATA");
    return local ? join(local, "deno") : undefined;
  }
  const home = env("HOME");
  if (os === "darwin") return home ? join(home, "Library", "Caches", "deno") : undefined;
  const cache = env("XDG_CACHE_HOME") || (home ? join(home, ".cache") : undefined);
  return cache ? join(cache, "deno") : undefined;
}
