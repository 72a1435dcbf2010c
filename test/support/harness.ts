import { CortexError } from "../../runtime/errors.ts";
import assert from "node:assert/strict";
/**
 * Test support: a temporary home with a runtime on it, and small plugins
 * written into a temporary source folder. Every test that uses it closes the
 * runtime and deletes the folder when it is done (`await using`).
 *
 * @module
 */
import { join } from "node:path";
import { defaultLoaders } from "../../loaders/mod.ts";
import { EventBus } from "../../runtime/event_bus.ts";
import { Runtime, type RuntimeLoaders } from "../../runtime/runtime.ts";

/** The folder of this repository's fixture plugins (`test/fixtures`). */
export const FIXTURES_DIR: string = join(import.meta.dirname!, "..", "fixtures");

/** The smallest valid manifest for `name`, with `extra` merged over it. */
export function manifestFor(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    version: "1.0.0",
    description: `test plugin ${name}`,
    kind: "esm",
    entryPoint: "mod.ts",
    runtime: "deno",
    capabilities: ["tools"],
    ...extra,
  };
}

/** Options for {@link Harness.open}. */
export interface HarnessOptions {
  /** Loaders (default {@link defaultLoaders}). */
  loaders?: RuntimeLoaders;
  /** The bus (default a fresh {@link EventBus}; pass `null` for the process-wide bus). */
  events?: EventBus | null;
  /** Default deadline (default 1000 ms). */
  defaultTimeoutMs?: number;
  /** Busy timeout for the database (default the runtime's). */
  busyTimeoutMs?: number;
}

/** A temporary home, a source folder for plugins, and a runtime open on the home. */
export class Harness {
  /** The temporary root (holds `home/` and `src/`). */
  readonly root: string;
  /** The runtime's home. */
  readonly home: string;
  /** Where {@link Harness.plugin} writes plugin folders. */
  readonly src: string;
  /** The bus the runtime uses. */
  readonly events: EventBus | undefined;
  #options: HarnessOptions;
  #runtime: Runtime;

  private constructor(root: string, runtime: Runtime, options: HarnessOptions) {
    this.root = root;
    this.home = join(root, "home");
    this.src = join(root, "src");
    this.events = options.events ?? undefined;
    this.#options = options;
    this.#runtime = runtime;
  }

  /** Opens a runtime on a new temporary home. */
  static async open(options: HarnessOptions = {}): Promise<Harness> {
    const root = await Deno.makeTempDir({ prefix: "cortex-test-" });
    const opts = { ...options, events: options.events === undefined ? new EventBus() : options.events };
    const runtime = await Harness.#openRuntime(join(root, "home"), opts);
    return new Harness(root, runtime, opts);
  }

  static async #openRuntime(home: string, options: HarnessOptions): Promise<Runtime> {
    return await Runtime.open({
      home,
      loaders: options.loaders ?? defaultLoaders(),
      events: options.events ?? undefined,
      defaultTimeoutMs: options.defaultTimeoutMs ?? 1000,
      busyTimeoutMs: options.busyTimeoutMs,
    });
  }

  /** The open runtime. */
  get runtime(): Runtime {
    return this.#runtime;
  }

  /**
   * Closes the runtime and opens a new one on the same home (a restart),
   * running `between` while no runtime is open.
   */
  async reopen(between?: () => Promise<void>): Promise<Runtime> {
    await this.#runtime.close();
    await between?.();
    this.#runtime = await Harness.#openRuntime(this.home, this.#options);
    return this.#runtime;
  }

  /**
   * Writes a plugin folder under `src/<folder>` with `manifest` (as
   * `manifestFile`) and `mod.ts` holding `code`; returns the folder.
   */
  async plugin(
    manifest: Record<string, unknown>,
    code: string,
    options: { folder?: string; manifestFile?: string } = {},
  ): Promise<string> {
    const dir = join(this.src, options.folder ?? String(manifest.name));
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(
      join(dir, options.manifestFile ?? "manifest.json"),
      JSON.stringify(manifest, null, 2),
    );
    await Deno.writeTextFile(join(dir, "mod.ts"), code);
    return dir;
  }

  /** Writes and installs a trusted plugin; fails the test if it does not become active. */
  async installTrusted(manifest: Record<string, unknown>, code: string): Promise<string> {
    const dir = await this.plugin(manifest, code);
    const result = await this.#runtime.install(dir, { trust: "trusted" });
    if (result.loadError) throw result.loadError;
    return dir;
  }

  /** The lines of a plugin's log file (empty when it has none). */
  async logLines(name: string): Promise<string[]> {
    try {
      const text = await Deno.readTextFile(join(this.home, "logs", `${name}.log`));
      return text.split("\n").filter((l) => l !== "");
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return [];
      throw error;
    }
  }

  /** Closes the runtime and removes every file the test made. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.#runtime.close();
    await Deno.remove(this.root, { recursive: true });
  }
}

/** Lists a folder's entries (empty when it does not exist). */
export async function entriesOf(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) out.push(entry.name);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return out;
    throw error;
  }
  return out.sort();
}

/** Whether a path exists. */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** Awaits a promise that must be refused with a CortexError, and returns the error. */
export async function refusal(promise: Promise<unknown>): Promise<CortexError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof CortexError, `expected a CortexError, got ${error}`);
    return error;
  }
  assert.fail("expected a refusal");
}
