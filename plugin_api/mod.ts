/**
 * The plugin API: what `import ... from "cortex/plugins"` gives a plugin.
 * Map the specifier to this file in your import map (this repository's
 * deno.json does). Type imports are erased; the one value export is
 * {@link globalEventBus}.
 *
 * @example
 * ```ts
 * import { globalEventBus } from "cortex/plugins";
 * import type { PluginContext } from "cortex/plugins";
 *
 * export const onLoad = (ctx: PluginContext) => {
 *   globalEventBus.on("tool:post-execute", (e) => ctx.logger.info(JSON.stringify(e)));
 * };
 * ```
 *
 * @module
 */

export * from "./types.ts";
export { globalEventBus } from "./global_event_bus.ts";
