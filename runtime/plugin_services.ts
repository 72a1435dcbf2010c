import type { PluginConfigStore, PluginStateStore } from "../plugin_api/types.ts";
import type { Manifest } from "../manifest/schema.ts";
import type { ConfigFile } from "./config_file.ts";
import type { StateTable } from "./store/mod.ts";

/** The plugin's `ctx.state`, over the state table. */
export function createStateStore(table: StateTable, plugin: string): PluginStateStore {
  return {
    get: (key) => Promise.resolve().then(() => table.get(plugin, String(key))),
    set: (key, value) =>
      Promise.resolve().then(() => {
        if (typeof value !== "string") {
          throw new TypeError("state values are strings; JSON.stringify other values");
        }
        table.set(plugin, String(key), value);
      }),
    delete: (key) => Promise.resolve().then(() => table.delete(plugin, String(key))),
    list: () => Promise.resolve().then(() => table.list(plugin)),
  };
}

/** Default config values from the manifest: `config.settings`, then `ui.settings` defaults. */
export function configDefaults(manifest: Manifest): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  for (const section of manifest.ui?.settings ?? []) {
    for (const field of section.fields) {
      const value = field.defaultValue !== undefined ? field.defaultValue : field.default;
      if (value !== undefined) defaults[field.key] = value;
    }
  }
  Object.assign(defaults, manifest.config?.settings ?? {});
  return defaults;
}

/** Keys whose values are secrets (ui settings of type `secret`): never put in events. */
export function secretKeys(manifest: Manifest): Set<string> {
  const keys = new Set<string>();
  for (const section of manifest.ui?.settings ?? []) {
    for (const field of section.fields) if (field.type === "secret") keys.add(field.key);
  }
  return keys;
}

/** The plugin's `ctx.config`: its section of config.json over the manifest's defaults. */
export function createConfigStore(
  file: ConfigFile,
  manifest: Manifest,
  onSet: (key: string, value: unknown) => Promise<void>,
): PluginConfigStore {
  const plugin = manifest.name;
  const defaults = configDefaults(manifest);
  const getAll = async () => ({ ...defaults, ...(await file.section(plugin)) });
  return {
    get: async <T>(key?: string) => {
      const all = await getAll();
      if (key === undefined) return all as T;
      return (Object.hasOwn(all, key) ? all[key] : null) as T | null;
    },
    set: async (key, value) => {
      await file.setKey(plugin, String(key), value);
      await onSet(String(key), value);
    },
    getAll,
  };
}
