/**
 * The CortexPrism plugin manifest: schema, JSON Schema, reading and
 * validation. See `shared/specs/cortexprism-plugins.md`.
 *
 * @example
 * ```ts ignore
 * import { readManifest } from "./mod.ts";
 * const { manifest, dir } = await readManifest("./examples/hello");
 * console.log(manifest.name, manifest.capabilities);
 * ```
 *
 * @module
 */

export * from "./capabilities.ts";
export * from "./schema.ts";
export * from "./read_manifest.ts";
export { formatIssuePath, formatIssues } from "./format_issues.ts";
