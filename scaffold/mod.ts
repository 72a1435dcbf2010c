/**
 * Plugin scaffolding, behind `cortex plugins new`: a new ESM or WASM (C or
 * AssemblyScript) plugin folder that builds and passes its own test as
 * generated. The files are the templates in `scaffold/templates/`, filled in
 * with the plugin's name and this checkout's location; WASM plugins get a
 * copy of the C or AssemblyScript kit of `wasm-abi/`.
 *
 * @example
 * ```ts ignore
 * import { createPlugin } from "./mod.ts";
 * const { dir, files } = await createPlugin("my-plugin", { kind: "wasm", lang: "assemblyscript" });
 * ```
 *
 * @module
 */

export { createPlugin } from "./create_plugin.ts";
export type { CreatedPlugin, CreatePluginOptions } from "./create_plugin.ts";
export { PLUGIN_KINDS, PLUGIN_LANGUAGES, pluginFiles } from "./plugin_files.ts";
export type { PluginFile, PluginFilesOptions, PluginKind, PluginLanguage } from "./plugin_files.ts";
export { checkPluginName } from "./plugin_name.ts";
export { renderTemplate } from "./render_template.ts";
export { SCAFFOLD_ERROR_CODES } from "./errors.ts";
