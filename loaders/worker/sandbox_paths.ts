/**
 * Where the sandbox's own files are, what a sandbox process's environment
 * holds, and which of the runtime's files no sandbox may ever touch.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CortexError } from "../../runtime/errors.ts";
import { homeLayout } from "../../runtime/home.ts";

/** The runtime's files a sandbox process needs. */
export interface SandboxPaths {
  /** The repository's deno.json (its import map resolves `cortex/plugins`). */
  configPath: string;
  /** `sandbox_main.ts`. */
  mainPath: string;
  /** What every Worker reads of the runtime: the shim and the plugin API. */
  sourceReads: string[];
}

/**
 * Finds the sandbox's files beside this module.
 *
 * @throws {CortexError} `sandbox_unavailable` when the runtime does not run from local files.
 */
export function sandboxPaths(): SandboxPaths {
  const here = new URL(".", import.meta.url);
  if (here.protocol !== "file:") {
    throw new CortexError(
      "sandbox_unavailable",
      `the Worker sandbox needs the runtime's source as local files, not ${here.protocol} URLs`,
    );
  }
  const path = (relative: string) => fileURLToPath(new URL(relative, import.meta.url)).replace(/[\\/]$/, "");
  return {
    configPath: path("../../deno.json"),
    mainPath: path("./sandbox_main.ts"),
    sourceReads: [path("./"), path("../../plugin_api/"), path("../../runtime/event_bus.ts")],
  };
}

function env(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

/**
 * The whole environment of a sandbox process: a PATH (for the commands a
 * plugin may be granted), Deno's cache folder, and nothing else. Workers
 * cannot read it (no `env` permission), and a granted command inherits only
 * this.
 */
export function sandboxEnv(): Record<string, string> {
  const out: Record<string, string> = { NO_COLOR: "1", PATH: env("PATH") ?? "/usr/local/bin:/usr/bin:/bin" };
  const home = env("HOME");
  let cache = env("DENO_DIR");
  if (!cache && Deno.build.os === "darwin" && home) cache = join(home, "Library", "Caches", "deno");
  if (!cache && Deno.build.os === "windows") {
    cache = env("LOCALAPPDATA") && join(env("LOCALAPPDATA")!, "deno");
  }
  if (!cache) {
    const xdg = env("XDG_CACHE_HOME") || (home ? join(home, ".cache") : undefined);
    if (xdg) cache = join(xdg, "deno");
  }
  if (cache) out.DENO_DIR = cache;
  return out;
}

/** The runtime's own files under `home` that no sandbox may read or write. */
export function deniedPaths(home: string | undefined): string[] {
  if (!home) return [];
  const layout = homeLayout(home);
  return [
    layout.database,
    `${layout.database}-wal`,
    `${layout.database}-shm`,
    layout.config,
    layout.token,
    layout.trustedKeys,
  ];
}
