import { dirname, join, resolve } from "node:path";
import { CortexError } from "../runtime/errors.ts";
import { checkPluginName } from "./plugin_name.ts";
import { pluginFiles, type PluginKind, type PluginLanguage } from "./plugin_files.ts";

/** Options for {@link createPlugin}. */
export interface CreatePluginOptions {
  /** The kind of plugin (default `esm`). */
  kind?: PluginKind;
  /** The language of a `wasm` plugin (default `c`). */
  lang?: PluginLanguage;
  /** The folder to create the plugin folder in (default the current folder). */
  parent?: string;
}

/** What {@link createPlugin} made. */
export interface CreatedPlugin {
  /** The plugin's name. */
  name: string;
  /** Its kind. */
  kind: PluginKind;
  /** Its language, for `wasm`. */
  lang?: PluginLanguage;
  /** The absolute path of the new folder. */
  dir: string;
  /** The files written, relative to {@link CreatedPlugin.dir}. */
  files: string[];
}

/**
 * Creates the folder `<parent>/<name>` holding a new plugin that builds and
 * passes its own test as generated. Refuses a bad name (`usage`) and an
 * existing folder (`scaffold_exists`, nothing written); if writing fails
 * part way, the new folder is removed again.
 *
 * @example
 * ```ts ignore
 * import { createPlugin } from "./create_plugin.ts";
 * const created = await createPlugin("my-plugin", { kind: "wasm", lang: "c", parent: "/tmp" });
 * console.log(created.dir, created.files);
 * ```
 */
export async function createPlugin(name: string, options: CreatePluginOptions = {}): Promise<CreatedPlugin> {
  checkPluginName(name);
  const kind = options.kind ?? "esm";
  const lang = kind === "wasm" ? options.lang ?? "c" : options.lang;
  const dir = resolve(options.parent ?? Deno.cwd(), name);
  // Everything is rendered before the folder exists, so a bad option or template leaves nothing behind.
  const files = await pluginFiles(name, { kind, lang, dir });
  await Deno.mkdir(dirname(dir), { recursive: true });
  try {
    await Deno.mkdir(dir); // not recursive: fails if anything is already there, which is the check
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) {
      throw new CortexError("scaffold_exists", `${dir} already exists; choose another name or --dir`);
    }
    throw error;
  }
  try {
    for (const file of files) {
      const path = join(dir, file.path);
      await Deno.mkdir(dirname(path), { recursive: true });
      await Deno.writeTextFile(path, file.content, { createNew: true });
    }
  } catch (error) {
    await Deno.remove(dir, { recursive: true });
    throw error;
  }
  return { name, kind, ...(lang ? { lang } : {}), dir, files: files.map((f) => f.path) };
}
