/**
 * The CortexPrism plugin manifest: its type, JSON Schema, reading and
 * validation. See `shared/specs/cortexprism-plugins.md`.
 *
 * @example
 * ```ts ignore
 * import { readManifest } from "./mod.ts";
 * const { manifest, dir } = await readManifest("./examples/esm/hello");
 * console.log(manifest.name, manifest.capabilities);
 * ```
 *
 * @module
 */

export * from "./capabilities.ts";
export type * from "./types.ts";
export { manifestJsonSchema, PLUGIN_NAME_PATTERN } from "./schema.ts";
export * from "./read_manifest.ts";
