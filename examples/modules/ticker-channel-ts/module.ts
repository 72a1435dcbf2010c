/**
 * ticker-channel-ts: a CortexFS `channel` module. `tick` publishes `count`
 * events named `tick`; `relay` calls a runtime method through the host. Runs
 * on Deno as is (see manifest.json), or on Node once bundled.
 *
 * @module
 */
// "cortexfs-module/" is the runtime's module SDK: this repository's deno.json maps it, and the
// runtime passes its import map when it starts the module (see "{sdk}" in manifest.json).
import { CortexError, runModule } from "cortexfs-module/client.ts";

const MAX_TICKS = 1000;

function countOf(payload: unknown): number {
  const count = (payload as { count?: unknown } | null)?.count ?? 1;
  if (!Number.isInteger(count) || (count as number) < 0 || (count as number) > MAX_TICKS) {
    throw new CortexError("args_invalid", `count must be an integer from 0 to ${MAX_TICKS}`);
  }
  return count as number;
}

let ticks = 0;

await runModule({
  metadata: {
    id: "channel.ticker",
    version: "1.0.0",
    kind: "channel",
    capabilities: [
      { name: "tick", description: "publishes tick events" },
      { name: "relay", description: "calls a runtime method through the host" },
    ],
  },
  handlers: {
    tick(payload, ctx) {
      const count = countOf(payload);
      for (let i = 0; i < count; i++) ctx.emit("tick", { n: ++ticks });
      return { published: count, total: ticks };
    },
    relay(payload, ctx) {
      const { method, payload: inner } = (payload ?? {}) as { method?: unknown; payload?: unknown };
      if (typeof method !== "string") throw new CortexError("args_invalid", "method must be a string");
      return ctx.callHost(method, inner ?? null);
    },
  },
  onLifecycle(operation) {
    console.error(`lifecycle ${operation}`);
  },
});
