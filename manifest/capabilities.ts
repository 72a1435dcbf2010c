/**
 * The documented capabilities: extension points a plugin provides, and
 * permissions it needs. A capability declares; only the person grants.
 *
 * @module
 */

/** Extension-point capabilities. */
export const EXTENSION_CAPABILITIES = [
  "tools",
  "cli:commands",
  "ui:panel",
  "ui:widget",
  "config:schema",
  "config:provider",
  "memory:store",
  "memory:embedder",
  "events:listener",
  "middleware:pre",
  "middleware:post",
] as const;

/** Permission capabilities. */
export const PERMISSION_CAPABILITIES = [
  "fs:read",
  "fs:write",
  "fs:list",
  "fs:edit",
  "fs:delete",
  "fs:search",
  "shell:run",
  "network:fetch",
  "net:outbound",
  "net:inbound",
  "db:read",
  "db:write",
] as const;

/** Every capability a manifest may declare. */
export const CAPABILITIES: readonly Capability[] = [
  ...EXTENSION_CAPABILITIES,
  ...PERMISSION_CAPABILITIES,
];

/** One documented capability. */
export type Capability =
  | (typeof EXTENSION_CAPABILITIES)[number]
  | (typeof PERMISSION_CAPABILITIES)[number];

/** Capabilities a single tool may list in `definition.capabilities`. */
export const TOOL_CAPABILITIES = [
  "fs:read",
  "fs:write",
  "fs:list",
  "fs:edit",
  "fs:delete",
  "fs:search",
  "shell:run",
  "network:fetch",
  "db:read",
  "db:write",
] as const;

/** Whether `value` is a documented capability. */
export function isCapability(value: string): value is Capability {
  return (CAPABILITIES as readonly string[]).includes(value);
}
