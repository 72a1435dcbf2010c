import { deepEqual, equal, ok, rejects, throws } from "node:assert/strict";
import { CortexError } from "../runtime/errors.ts";
import { ModuleLifecycleError } from "./errors.ts";
import type { CortexModule, ModuleContext } from "./lifecycle.ts";
import type { ModuleKind } from "./metadata.ts";
import { ModuleRegistry } from "./registry.ts";

function recorder(
  log: string[],
  id: string,
  failOn?: string,
  kind: ModuleKind = "tool",
) {
  const step = (name: string) => () => {
    log.push(`${id}:${name}`);
    return name === failOn ? Promise.reject(new Error(`${name} broke`)) : Promise.resolve();
  };
  const module: CortexModule & { seen?: ModuleContext } = {
    metadata: { id, version: "1.0.0", kind, capabilities: [] },
    init(ctx) {
      module.seen = ctx;
      return step("init")();
    },
    start: step("start"),
    stop: step("stop"),
    shutdown: step("shutdown"),
  };
  return module;
}

const hasCode = (code: string) => (e: unknown) => e instanceof CortexError && e.code === code;

Deno.test("registry: drives every module through the lifecycle in byte order of ids", async () => {
  const log: string[] = [];
  const registry = new ModuleRegistry();
  for (const id of ["b.tool", "B.tool", "a.tool", "_x"]) {
    registry.register(recorder(log, id));
  }
  deepEqual(registry.ids(), ["B.tool", "_x", "a.tool", "b.tool"]);
  await registry.initAll({ instance: "agent-1" });
  equal(registry.state("a.tool"), "initialized");
  await registry.startAll();
  await registry.stopAll();
  await registry.shutdownAll();
  equal(registry.state("b.tool"), "shutdown");
  deepEqual(log.slice(0, 4), [
    "B.tool:init",
    "_x:init",
    "a.tool:init",
    "b.tool:init",
  ]);
  equal(log.length, 16);
});

Deno.test("registry: rejects invalid metadata and duplicate ids", () => {
  const registry = new ModuleRegistry();
  throws(
    () => registry.register(recorder([], "bad/id")),
    hasCode("invalid_metadata"),
  );
  registry.register(recorder([], "tool.valid"));
  throws(
    () => registry.register(recorder([], "tool.valid")),
    hasCode("duplicate_module"),
  );
  equal(registry.metadata("tool.valid")?.id, "tool.valid");
  equal(registry.metadata("missing"), undefined);
  equal(registry.state("missing"), undefined);
});

Deno.test("registry: skipping, repeating and restarting are invalid_state and run nothing", async () => {
  const log: string[] = [];
  const registry = new ModuleRegistry();
  registry.register(recorder(log, "m"));
  await rejects(registry.startAll(), hasCode("invalid_state"));
  await registry.initAll({ instance: "i" });
  await rejects(registry.initAll({ instance: "i" }), hasCode("invalid_state"));
  await rejects(registry.shutdownAll(), hasCode("invalid_state"));
  await registry.startAll();
  await registry.stopAll();
  await registry.shutdownAll();
  for (
    const again of [
      () => registry.initAll({ instance: "i" }),
      () => registry.startAll(),
    ]
  ) {
    await rejects(again(), hasCode("invalid_state"));
  }
  deepEqual(log, ["m:init", "m:start", "m:stop", "m:shutdown"]);
});

Deno.test("registry: a module's failure is wrapped with module and operation and keeps its state", async () => {
  const log: string[] = [];
  const registry = new ModuleRegistry();
  registry.register(recorder(log, "a.ok"));
  registry.register(recorder(log, "b.failing", "init", "agent"));
  registry.register(recorder(log, "c.never"));
  const error = await registry.initAll({ instance: "test" }).catch((e) => e);
  ok(error instanceof ModuleLifecycleError);
  equal(error.code, "lifecycle_failed");
  equal(error.module, "b.failing");
  equal(error.operation, "init");
  equal((error.cause as Error).message, "init broke");
  equal(registry.state("a.ok"), "initialized");
  equal(registry.state("b.failing"), "registered");
  equal(registry.state("c.never"), "registered");
  deepEqual(log, ["a.ok:init", "b.failing:init"]);
});

Deno.test("registry: the context holds only the instance, and the instance follows the name rule", async () => {
  const registry = new ModuleRegistry();
  const mod = recorder([], "m");
  registry.register(mod);
  await rejects(
    registry.initAll({ instance: "no spaces" }),
    hasCode("invalid_instance"),
  );
  const ctx = { instance: "agent-1", secret: "token" } as ModuleContext;
  await registry.initAll(ctx);
  deepEqual(mod.seen, { instance: "agent-1" });
  equal(Object.isFrozen(mod.seen), true);
});

Deno.test("registry: a second operation while one runs is registry_busy", async () => {
  const registry = new ModuleRegistry();
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const mod = recorder([], "slow");
  mod.init = () => gate;
  registry.register(mod);
  const first = registry.initAll({ instance: "i" });
  await rejects(registry.startAll(), hasCode("registry_busy"));
  throws(
    () => registry.register(recorder([], "other")),
    hasCode("registry_busy"),
  );
  release();
  await first;
  equal(registry.state("slow"), "initialized");
});

Deno.test("registry: metadata is a snapshot taken at register", () => {
  const registry = new ModuleRegistry();
  const mod = recorder([], "m");
  registry.register(mod);
  (mod.metadata as { version: string }).version = "9.9.9";
  equal(registry.metadata("m")?.version, "1.0.0");
});
