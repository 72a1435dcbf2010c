import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { CortexError } from "../../runtime/errors.ts";
import { ModuleLifecycleError } from "../errors.ts";
import { collector, EXAMPLES, fixtureSpec, recorded, tempDir } from "./_test_support.ts";
import { startModuleProcess } from "./start_module_process.ts";

const hasCode = (code: string) => (e: unknown) => e instanceof CortexError && e.code === code;

Deno.test("host: the Python echo tool starts, answers its capabilities, and stops cleanly", async () => {
  const { dir, cleanup } = await tempDir();
  const seen = collector();
  try {
    const mod = await startModuleProcess({
      command: ["python3", "module.py"],
      cwd: `${EXAMPLES}echo-tool-py`,
      socketDir: `${dir}/sockets`,
      instance: "agent-1",
    }, seen);
    equal(mod.state, "running");
    equal(mod.moduleState, "running");
    equal((await Deno.stat(`${dir}/sockets`)).mode! & 0o777, 0o700);
    deepEqual(mod.metadata.capabilities.map((c) => c.name), ["echo", "reverse"]);
    equal(mod.metadata.kind, "tool");
    deepEqual(await mod.call("echo", { text: "héllo" }), { text: "héllo" });
    deepEqual(await mod.call("reverse", { text: "abc" }), { text: "cba" });
    await rejects(mod.call("echo", 5), hasCode("args_invalid"));
    await rejects(mod.call("translate", {}), hasCode("unknown_method"));
    const exit = await mod.stop();
    deepEqual(exit, { reason: "stopped", code: 0, signal: null, killed: false });
    equal(mod.state, "stopped");
    ok(seen.logs.includes("stderr: lifecycle init (instance agent-1)"));
    ok(seen.logs.includes("stderr: lifecycle shutdown (instance agent-1)"));
    deepEqual(seen.exits, [exit]);
    await rejects(mod.call("echo", { text: "late" }), hasCode("module_not_running"));
  } finally {
    await cleanup();
  }
});

Deno.test("host: the TypeScript ticker channel publishes events and calls back into the host", async () => {
  const { dir, cleanup } = await tempDir();
  const seen = collector();
  const manifest = JSON.parse(await Deno.readTextFile(`${EXAMPLES}ticker-channel-ts/manifest.json`));
  try {
    // The runtime fills "{sdk}" with the SDK folder (module-abi/); this test drives the host directly.
    const sdk = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
    const mod = await startModuleProcess({
      command: (manifest.command as string[]).map((arg) => arg.replaceAll("{sdk}", sdk)),
      cwd: `${EXAMPLES}ticker-channel-ts`,
      socketDir: dir,
      instance: "agent-2",
    }, {
      ...seen,
      onCall(method, payload) {
        if (method === "secret.fail") throw new Error("token=hunter2");
        if (method === "policy.deny") throw new CortexError("permission_denied", "not allowed");
        return { method, payload };
      },
    });
    equal(mod.metadata.kind, "channel");
    deepEqual(await mod.call("tick", { count: 3 }), { published: 3, total: 3 });
    deepEqual(seen.events, [["tick", { n: 1 }], ["tick", { n: 2 }], ["tick", { n: 3 }]]);
    deepEqual(await mod.call("relay", { method: "tools.list", payload: { a: 1 } }), {
      method: "tools.list",
      payload: { a: 1 },
    });
    await rejects(mod.call("relay", { method: "policy.deny" }), hasCode("permission_denied"));
    const leaked = await mod.call("relay", { method: "secret.fail" }).catch((e: CortexError) =>
      e
    ) as CortexError;
    equal(leaked.code, "call_failed");
    ok(!leaked.message.includes("hunter2"));
    await rejects(mod.call("tick", { count: -1 }), hasCode("args_invalid"));
    equal((await mod.stop()).reason, "stopped");
  } finally {
    await cleanup();
  }
});

Deno.test("host: the child gets only the environment it is given, PATH and the socket", async () => {
  const { dir, cleanup } = await tempDir();
  const seen = collector();
  try {
    await rejects(
      startModuleProcess(
        { command: ["env"], cwd: dir, socketDir: dir, instance: "env-1", env: { FOO: "1" } },
        seen,
      ),
      hasCode("module_exited"),
    );
    const names = seen.logs.map((line) => line.replace(/^stdout: /, "").split("=")[0]).sort();
    deepEqual(names, ["CORTEXFS_MODULE_SOCKET", "FOO", "PATH"]);
    equal(seen.exits[0].reason, "exited");
  } finally {
    await cleanup();
  }
});

Deno.test("host: a command that cannot start is spawn_failed", async () => {
  const { dir, cleanup } = await tempDir();
  const seen = collector();
  try {
    await rejects(
      startModuleProcess({ command: [`${dir}/missing`], cwd: dir, socketDir: dir, instance: "x" }, seen),
      hasCode("spawn_failed"),
    );
    equal(seen.exits[0].reason, "spawn_failed");
    deepEqual([...Deno.readDirSync(dir)], []);
  } finally {
    await cleanup();
  }
});

Deno.test("host: a module that never connects misses the ready deadline and is killed", async () => {
  const { dir, cleanup } = await tempDir();
  const seen = collector();
  try {
    await rejects(
      startModuleProcess(fixtureSpec(dir, "never_connect", { readyMs: 800 }), seen),
      hasCode("ready_timeout"),
    );
    equal(seen.exits.length, 1);
    equal(seen.exits[0].reason, "deadline");
    equal(seen.exits[0].killed, true);
  } finally {
    await cleanup();
  }
});

Deno.test("host: a module that connects but never sends ready misses the deadline", async () => {
  const { dir, cleanup } = await tempDir();
  const seen = collector();
  try {
    await rejects(
      startModuleProcess(fixtureSpec(dir, "no_ready", { readyMs: 1_500 }), seen),
      hasCode("ready_timeout"),
    );
    equal(seen.exits[0].reason, "deadline");
    ok((await recorded(dir))[0].includes('"type":"hello"'));
  } finally {
    await cleanup();
  }
});

Deno.test("host: init that never answers is lifecycle_timeout; init that fails is lifecycle_failed", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    await rejects(
      startModuleProcess(fixtureSpec(dir, "hang_init", { lifecycleMs: 300 })),
      hasCode("lifecycle_timeout"),
    );
    const error = await startModuleProcess(fixtureSpec(dir, "fail_init")).catch((e) => e);
    ok(error instanceof ModuleLifecycleError);
    equal(error.operation, "init");
    equal(error.module, "fixture");
    equal((error.cause as CortexError).code, "init_broke");
  } finally {
    await cleanup();
  }
});

Deno.test("host: stop sends stop then shutdown, waits the grace, then kills a module that lingers", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const mod = await startModuleProcess(fixtureSpec(dir, "linger"));
    const exit = await mod.stop({ graceMs: 400 });
    deepEqual([exit.reason, exit.killed, exit.signal], ["stopped", true, "SIGKILL"]);
    const ops = (await recorded(dir)).filter((l) => l.includes("lifecycle")).map((l) =>
      JSON.parse(l).operation
    );
    deepEqual(ops, ["init", "start", "stop", "shutdown"]);
    equal((await recorded(dir)).at(-1), "closed");
  } finally {
    await cleanup();
  }
});

Deno.test("host: a well-behaved module exits on its own within the grace and is not killed", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const mod = await startModuleProcess(fixtureSpec(dir, "good"));
    const exit = await mod.stop({ graceMs: 5_000 });
    deepEqual(exit, { reason: "stopped", code: 0, signal: null, killed: false });
  } finally {
    await cleanup();
  }
});
