import { fileURLToPath } from "node:url";
import { CortexError } from "../runtime/errors.ts";
import { renderTemplate } from "./render_template.ts";

/** The kinds of plugin `cortex plugins new` makes. */
export const PLUGIN_KINDS = ["esm", "wasm"] as const;
/** A kind of plugin `cortex plugins new` makes. */
export type PluginKind = typeof PLUGIN_KINDS[number];

/** The languages a WASM plugin can be written in. */
export const PLUGIN_LANGUAGES = ["c", "assemblyscript"] as const;
/** A language a WASM plugin can be written in. */
export type PluginLanguage = typeof PLUGIN_LANGUAGES[number];

/** One file of a new plugin. */
export interface PluginFile {
  /** Path inside the plugin folder, with `/` separators. */
  path: string;
  /** The file's text. */
  content: string;
}

/** Options for {@link pluginFiles}. */
export interface PluginFilesOptions {
  /** The kind of plugin. */
  kind: PluginKind;
  /** The language, for `wasm` (default `c`); must be absent for `esm`. */
  lang?: PluginLanguage;
  /** The absolute path the plugin folder will have (its README names it). */
  dir: string;
}

const CHECKOUT = new URL("../", import.meta.url);
const TEMPLATES = new URL("./templates/", import.meta.url);

/** Where the files of one kind come from: templates (rendered) and a kit folder of the checkout (copied). */
interface Layout {
  /** Template (under `templates/`, without `.tmpl`) by output path. */
  templates: Record<string, string>;
  /** Every file of the checkout's `from` folder whose name ends in `ext`, copied into `to`. */
  kit?: { from: string; ext: string; to: string };
  /** Values only this kind's templates use. */
  values?: Record<string, string>;
}

const WASM_TEMPLATES = {
  "manifest.json": "wasm/manifest.json",
  "plugin_test.ts": "wasm/plugin_test.ts",
  "README.md": "wasm/README.md",
};

const LAYOUTS: Record<string, Layout> = {
  esm: {
    templates: {
      "manifest.json": "esm/manifest.json",
      "mod.ts": "esm/mod.ts",
      "mod_test.ts": "esm/mod_test.ts",
      "README.md": "esm/README.md",
    },
  },
  "wasm-c": {
    templates: { ...WASM_TEMPLATES, "plugin.c": "wasm-c/plugin.c", "build.ts": "wasm-c/build.ts" },
    // Copied so the plugin builds from its own folder (a quoted #include looks there first).
    kit: { from: "wasm-abi/c/", ext: ".h", to: "" },
    values: {
      language: "C",
      source: "plugin.c",
      kit: "`cortex_plugin.h` and `cortex_json.h`",
    },
  },
  "wasm-assemblyscript": {
    templates: {
      ...WASM_TEMPLATES,
      "assembly/index.ts": "wasm-assemblyscript/assembly/index.ts",
      "build.ts": "wasm-assemblyscript/build.ts",
    },
    // Copied because asc resolves imports and the `abort` alias only inside its base folder.
    kit: { from: "wasm-abi/assemblyscript/assembly/", ext: ".ts", to: "assembly/cortex/" },
    values: {
      language: "AssemblyScript",
      source: "assembly/index.ts",
      kit: "`assembly/cortex/`",
    },
  },
};

async function kitFiles(kit: NonNullable<Layout["kit"]>): Promise<PluginFile[]> {
  const folder = new URL(kit.from, CHECKOUT);
  const names: string[] = [];
  for await (const entry of Deno.readDir(folder)) {
    if (entry.isFile && entry.name.endsWith(kit.ext)) names.push(entry.name);
  }
  return await Promise.all(
    names.sort().map(async (name) => ({
      path: `${kit.to}${name}`,
      content: await Deno.readTextFile(new URL(name, folder)),
    })),
  );
}

/**
 * The files of a new plugin named `name`: templates from
 * `scaffold/templates/` filled in with the name and the absolute location
 * of this checkout (the plugin's test and build import it by `file://` URL),
 * plus copies of the C or AssemblyScript kit for WASM plugins.
 *
 * @example
 * ```ts
 * import { pluginFiles } from "./plugin_files.ts";
 * const files = await pluginFiles("my-plugin", { kind: "esm", dir: "/tmp/my-plugin" });
 * console.log(files.map((f) => f.path)); // manifest.json, mod.ts, mod_test.ts, README.md
 * ```
 */
export async function pluginFiles(name: string, options: PluginFilesOptions): Promise<PluginFile[]> {
  const key = options.kind === "wasm" ? `wasm-${options.lang ?? "c"}` : options.kind;
  const layout = Object.hasOwn(LAYOUTS, key) ? LAYOUTS[key] : undefined;
  if (!layout || (options.kind === "esm" && options.lang !== undefined)) {
    const found = `kind ${JSON.stringify(options.kind)}` +
      (options.lang === undefined ? "" : ` with language ${JSON.stringify(options.lang)}`);
    throw new CortexError(
      "usage",
      `expected kind ${PLUGIN_KINDS.join(" or ")} (a language, ${
        PLUGIN_LANGUAGES.join(" or ")
      }, only for wasm); found ${found}`,
    );
  }
  const root = fileURLToPath(CHECKOUT).replace(/\/$/, "");
  const values = {
    name,
    dir: options.dir,
    root,
    cortex: CHECKOUT.href,
    config: `${root}/deno.json`,
    ...layout.values,
  };
  const files: PluginFile[] = [];
  for (const [path, template] of Object.entries(layout.templates)) {
    const text = await Deno.readTextFile(new URL(`${template}.tmpl`, TEMPLATES));
    files.push({ path, content: renderTemplate(text, values) });
  }
  if (layout.kit) files.push(...await kitFiles(layout.kit));
  return files;
}
