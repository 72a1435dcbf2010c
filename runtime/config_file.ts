import { dirname } from "node:path";
import { CortexError } from "./errors.ts";

/** The shape of `<home>/config.json`: one section per plugin under `plugins`. */
export interface ConfigDocument {
  /** Per-plugin sections. */
  plugins?: Record<string, Record<string, unknown>>;
  /** Anything else the person keeps there is preserved. */
  [key: string]: unknown;
}

/**
 * `<home>/config.json`, read fresh on every access (the CLI and the daemon
 * may both write it) and written atomically: a temporary file beside it is
 * renamed over it, so a reader never sees half a file.
 */
export class ConfigFile {
  /** Absolute path of the file. */
  readonly path: string;

  /**
   * Creates it.
   * @param path Where config.json lives.
   */
  constructor(path: string) {
    this.path = path;
  }

  /** The whole document (empty when the file does not exist). */
  async read(): Promise<ConfigDocument> {
    let text: string;
    try {
      text = await Deno.readTextFile(this.path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return {};
      throw error;
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (error) {
      throw new CortexError(
        "config_invalid",
        `${this.path} is not valid JSON (${(error as Error).message}); fix or remove it`,
      );
    }
    if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
      throw new CortexError("config_invalid", `${this.path} must hold a JSON object`);
    }
    return doc as ConfigDocument;
  }

  /** One plugin's section (empty when unset). */
  async section(plugin: string): Promise<Record<string, unknown>> {
    const doc = await this.read();
    const section = doc.plugins?.[plugin];
    return section && typeof section === "object" && !Array.isArray(section) ? section : {};
  }

  /** Sets one key of one plugin's section. */
  async setKey(plugin: string, key: string, value: unknown): Promise<void> {
    if (value === undefined) {
      throw new CortexError("config_invalid", `the value for "${key}" must be JSON`);
    }
    const doc = await this.read();
    const plugins = { ...(doc.plugins ?? {}) };
    plugins[plugin] = { ...(plugins[plugin] ?? {}), [key]: value };
    await this.#write({ ...doc, plugins });
  }

  /** Removes one plugin's whole section. */
  async removeSection(plugin: string): Promise<void> {
    const doc = await this.read();
    if (!doc.plugins?.[plugin]) return;
    const plugins = { ...doc.plugins };
    delete plugins[plugin];
    await this.#write({ ...doc, plugins });
  }

  async #write(doc: ConfigDocument): Promise<void> {
    await Deno.mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const tmp = `${this.path}.${crypto.randomUUID()}.tmp`;
    try {
      await Deno.writeTextFile(tmp, JSON.stringify(doc, null, 2) + "\n", { mode: 0o600 });
      await Deno.rename(tmp, this.path);
    } catch (error) {
      await Deno.remove(tmp).catch(() => {});
      throw error;
    }
  }
}
