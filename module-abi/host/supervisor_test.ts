import { equal, notEqual, ok, rejects } from "node:assert/strict";
import { CortexError } from "../../runtime/errors.ts";
import { collector, EXAMPLES, fixtureSpec, tempDir } from "./_test_support.ts";
import { ModuleSupervisor } from "./supervisor.ts";

const hasCode = (code: string) => (e: unknown) => e instanceof CortexError && e.code === code;
const fast = { backoffMs: 20, maxBackoffMs: 100 };

Deno.test("supervisor: starts on the first call and reports state, pid and restarts", async () => {
  const { dir, cleanup } = await tempDir();
  const supervisor = new ModuleSupervisor({
    command: ["python3", "module.py"],
    cwd: `${EXAMPLES}echo-tool-py`,
    socketDir: dir,
    instance: "agent-1",
  });
  try {
    equal(supervisor.state, "idle");
    equal(supervisor.pid, undefined);
    equal(((await supervisor.call("reverse", { text: "ab" })) as { text: string }).text, "ba");
    equal(supervisor.state, "running");
    ok(supervisor.pid! > 0);
    equal(supervisor.restarts, 0);
    equal(supervisor.metadata?.id, "tool.echo");
    await supervisor.stop();
    equal(supervisor.state, "stopped");
    equal(supervisor.lastExit?.reason, "stopped");
    await rejects(supervisor.call("echo", { text: "x" }), hasCode("module_not_running"));
  } finally {
    await cleanup();
  }
});

Deno.test("supervisor: a module that exits is reported and restarted on the next call", async () => {
  const { dir, cleanup } = await tempDir();
  const seen = collector();
  const supervisor = new ModuleSupervisor(fixtureSpec(dir, "exit_on_call_first"), seen, fast);
  try {
    await supervisor.start();
    const firstPid = supervisor.pid;
    await rejects(supervisor.call("echo", 1));
    equal(supervisor.state, "crashed");
    equal(seen.exits[0].reason, "exited");
    equal(seen.exits[0].code, 3);
    equal(await supervisor.call("echo", 2), 2);
    equal(supervisor.restarts, 1);
    notEqual(supervisor.pid, firstPid);
    equal(supervisor.failures, 1);
    await supervisor.stop();
  } finally {
    await cleanup();
  }
});

Deno.test("supervisor: a hung module is killed when a call misses its deadline, then restarted", async () => {
  const { dir, cleanup } = await tempDir();
  const seen = collector();
  const supervisor = new ModuleSupervisor(fixtureSpec(dir, "hang_on_call_first"), seen, fast);
  try {
    await rejects(supervisor.call("echo", 1, { timeoutMs: 200 }), hasCode("call_timeout"));
    equal(supervisor.state, "crashed");
    equal(seen.exits[0].reason, "killed");
    equal(seen.exits[0].signal, "SIGKILL");
    equal(await supervisor.call("echo", "ok"), "ok");
    equal(supervisor.restarts, 1);
    await supervisor.stop();
  } finally {
    await cleanup();
  }
});

Deno.test("supervisor: a module that misses the ready deadline is reported and restarted", async () => {
  const { dir, cleanup } = await tempDir();
  const seen = collector();
  const spec = fixtureSpec(dir, "never_connect_first", { readyMs: 1_000 });
  const supervisor = new ModuleSupervisor(spec, seen, fast);
  try {
    await rejects(supervisor.start(), hasCode("ready_timeout"));
    equal(supervisor.state, "crashed");
    equal(seen.exits[0].reason, "deadline");
    equal(await supervisor.call("pid", null), supervisor.pid);
    equal(supervisor.restarts, 1);
    await supervisor.stop();
  } finally {
    await cleanup();
  }
});

Deno.test("supervisor: three failures within the window disable the module", async () => {
  const { dir, cleanup } = await tempDir();
  const seen = collector();
  const supervisor = new ModuleSupervisor(fixtureSpec(dir, "exit_on_call"), seen, fast);
  try {
    for (let i = 0; i < 3; i++) await rejects(supervisor.call("echo", i));
    equal(supervisor.state, "disabled");
    equal(supervisor.failures, 3);
    equal(supervisor.restarts, 2);
    await rejects(supervisor.call("echo", 4), hasCode("module_disabled"));
    equal(supervisor.restarts, 2, "a disabled module is not started again");
    equal(seen.exits.length, 3);
    supervisor.enable();
    await rejects(supervisor.call("echo", 5));
    equal(supervisor.restarts, 3);
  } finally {
    await supervisor.stop();
    await cleanup();
  }
});
