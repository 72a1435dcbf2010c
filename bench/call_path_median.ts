/**
 * Median overhead of the call path over a direct `execute` call, measured
 * per call (deno bench reports means, and the target is a median).
 *
 *   deno run --unstable-worker-options -A bench/call_path_median.ts
 */
import { Runtime } from "../runtime/runtime.ts";
import { EventBus } from "../runtime/event_bus.ts";
import { defaultLoaders } from "../loaders/mod.ts";

const ROUNDS = 20_000;
const home = await Deno.makeTempDir({ prefix: "cortex-median-" });
const runtime = await Runtime.open({ home, loaders: defaultLoaders(), events: new EventBus() });
await runtime.install(new URL("../examples/esm/event-recorder", import.meta.url).pathname, {
  trust: "trusted",
});
const mod = await import("../examples/esm/event-recorder/mod.ts");
const tool = mod.tools[0];
const ctx = {} as never;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function measure(fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < 2000; i++) await fn(); // warm up
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    await fn();
    out.push((performance.now() - t) * 1000);
  }
  return out;
}

const direct = await measure(() => Promise.resolve(tool.execute({}, ctx)));
const path = await measure(() => runtime.call("event-recorder.recent", {}, { caller: "person" }));
const d = median(direct);
const p = median(path);
console.log(`direct execute (floor): median ${d.toFixed(2)} µs`);
console.log(`runtime.call:           median ${p.toFixed(2)} µs`);
console.log(
  `overhead:               median ${(p - d).toFixed(2)} µs (ratio ${
    (p / d).toFixed(1)
  }x; target: overhead < 10 µs)`,
);
await runtime.close();
