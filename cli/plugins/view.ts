import type { PluginRow } from "../../runtime/store/mod.ts";
import type { Runtime } from "../../runtime/runtime.ts";

/** The public view of a plugin row (what `list` and `info` print). */
export function pluginView(row: PluginRow): Record<string, unknown> {
  return {
    name: row.name,
    version: row.version,
    kind: row.type,
    runtime: row.runtime,
    description: row.description,
    author: row.author,
    license: row.license,
    trust: row.trust_level,
    enabled: row.enabled === 1,
    status: row.status,
    error: row.error_message,
    declaredPermissions: row.declared_permissions ? row.declared_permissions.split(",") : [],
    effectivePermissions: row.effective_permissions ? row.effective_permissions.split(",") : [],
    integrityHash: row.integrity_hash,
    treeHash: row.tree_hash,
    loadAttempts: row.load_attempts,
    installedAt: row.installed_at,
    updatedAt: row.updated_at,
    lastLoadAt: row.last_load_at,
    source: row.source,
  };
}

/** The tools a plugin declares (from its manifest), for `info`. */
export function declaredTools(runtime: Runtime, name: string): Record<string, unknown>[] {
  const manifest = runtime.manifest(name);
  return (manifest.tools ?? []).map((t) => ({
    name: `${name}.${t.name}`,
    description: t.description,
    params: t.params,
  }));
}
