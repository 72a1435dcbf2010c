/**
 * The fixtures `cortex-plugin-*` are written in the shape of the plugins
 * CortexPrism publishes (type imports from "cortex/plugins", full
 * ToolCallResults with their own timing, settings read in onLoad,
 * peerDependencies, aiDisclosure, a cortex.json manifest, a whole-section
 * `ctx.config.get()`); they must install and run unchanged as trusted plugins.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { CortexError } from "../../runtime/errors.ts";
import { hashTree } from "../../runtime/hash.ts";
import { FIXTURES_DIR, Harness } from "../support/harness.ts";

const LADDER = "cortex-plugin-thought-ladder";
const LEDGER = "cortex-plugin-ledger-watch";
const GOALS = "cortex-plugin-goal-splitter";

async function installFixture(h: Harness, name: string): Promise<void> {
  const { row, loadError } = await h.runtime.install(join(FIXTURES_DIR, name), { trust: "trusted" });
  assert.equal(loadError, undefined, `${name}: ${loadError?.message}`);
  assert.equal(row.status, "active");
}

async function call(h: Harness, tool: string, args: Record<string, unknown> = {}) {
  const result = await h.runtime.call(tool, args, { caller: "agent:fixture-test" });
  assert.equal(result.success, true, `${tool}: ${result.error}`);
  assert.equal(result.toolName, tool);
  return JSON.parse(result.output);
}

Deno.test("published shape: all three install unchanged as trusted plugins and keep their extra keys", async () => {
  await using h = await Harness.open();
  const before = await Promise.all([LADDER, LEDGER, GOALS].map((n) => hashTree(join(FIXTURES_DIR, n))));
  for (const name of [LADDER, LEDGER, GOALS]) await installFixture(h, name);
  for (const name of [LADDER, LEDGER, GOALS]) {
    const manifest = h.runtime.manifest(name) as unknown as Record<string, unknown>;
    assert.deepEqual((manifest.aiDisclosure as { humanReview: boolean }).humanReview, true, name);
    assert.deepEqual(manifest.peerDependencies, { cortex: ">=1.0.0" }, name);
  }
  assert.deepEqual(
    h.runtime.tools().map((t) => t.qualifiedName),
    [
      "cortex-plugin-goal-splitter.goal_status",
      "cortex-plugin-goal-splitter.mark_subgoal",
      "cortex-plugin-goal-splitter.split_goal",
      "cortex-plugin-ledger-watch.ledger_balance",
      "cortex-plugin-ledger-watch.ledger_settings",
      "cortex-plugin-thought-ladder.ladder_reason",
      "cortex-plugin-thought-ladder.ladder_strategies",
    ],
  );
  const after = await Promise.all([LADDER, LEDGER, GOALS].map((n) => hashTree(join(FIXTURES_DIR, n))));
  assert.deepEqual(after, before, "installing changed the source folders");
});

Deno.test("published shape: onLoad reads ui.settings defaults one key at a time", async () => {
  await using h = await Harness.open();
  await installFixture(h, LADDER);
  assert.deepEqual((await call(h, `${LADDER}.ladder_strategies`)).config, {
    defaultStrategy: "linear",
    maxRungs: 4,
  });
  const reasoned = await call(h, `${LADDER}.ladder_reason`, { problem: "p" });
  assert.equal(reasoned.strategy, "linear");
  assert.equal(reasoned.steps.length, 4);
  assert.ok((await h.logLines(LADDER)).some((l) => l.includes("loaded, default strategy linear")));
});

Deno.test("published shape: a config change reaches onLoad at the next load", async () => {
  await using h = await Harness.open();
  await installFixture(h, LADDER);
  await h.runtime.setConfig(LADDER, "defaultStrategy", "branching");
  await h.runtime.disable(LADDER);
  await h.runtime.enable(LADDER);
  const reasoned = await call(h, `${LADDER}.ladder_reason`, { problem: "q", max_rungs: 2 });
  assert.deepEqual(reasoned, {
    strategy: "branching",
    steps: ['rung 1: branch on "q"', 'rung 2: branch on "q"'],
  });
});

Deno.test("published shape: the manifest's params are enforced, and its pass-through middleware is harmless", async () => {
  await using h = await Harness.open();
  await installFixture(h, LADDER);
  await installFixture(h, GOALS);
  const e = await h.runtime.call(`${LADDER}.ladder_reason`, { problem: "p", strategy: "sideways" }, {
    caller: "person",
  }).catch((error) => error as CortexError);
  assert.ok(e instanceof CortexError);
  assert.equal(e.code, "args_invalid");
  assert.match(e.message, /"strategy" must be one of "linear", "branching", "auto"/);
  const split = await call(h, `${GOALS}.split_goal`, { goal: "ship", max_subgoals: 1 });
  assert.deepEqual(split.subgoals, [{ title: "ship: part 1", status: "pending" }]);
});

Deno.test("published shape: a cortex.json plugin reads its whole section with ctx.config.get()", async () => {
  await using h = await Harness.open();
  await installFixture(h, LEDGER);
  const loaded = await call(h, `${LEDGER}.ledger_settings`);
  assert.deepEqual({ apiKey: loaded.apiKey, timeoutMs: loaded.timeoutMs }, {
    apiKey: "unset",
    timeoutMs: 9000,
  });
  await h.runtime.setConfig(LEDGER, "apiKey", "k-123");
  await h.runtime.setConfig(LEDGER, "defaultNetwork", "testnet");
  await h.runtime.disable(LEDGER);
  await h.runtime.enable(LEDGER);
  assert.deepEqual(await call(h, `${LEDGER}.ledger_settings`), {
    apiKey: "set",
    defaultNetwork: "testnet",
    timeoutMs: 9000,
  });
  const balance = await call(h, `${LEDGER}.ledger_balance`, { account: "ab" });
  assert.deepEqual(balance, { account: "ab", network: "testnet", balance: 195 });
});

Deno.test("published shape: a secret setting never appears in config:change events", async () => {
  await using h = await Harness.open();
  await installFixture(h, LEDGER);
  const events: unknown[] = [];
  h.events!.on("config:change", (p) => void events.push(p));
  await h.runtime.setConfig(LEDGER, "apiKey", "k-very-secret");
  assert.deepEqual(events, [{ key: `${LEDGER}.apiKey`, value: "[secret]" }]);
});

// COMPATIBILITY: published plugins (reflection, crypto) write a setting's default
// as "default", not the documented "defaultValue"; plugin_services.ts configDefaults
// ignores it, so ctx.config.get("defaultNetwork") is null instead of "testnet".
Deno.test("published shape: a ui.settings default written as `default` is the key's default", async () => {
  await using h = await Harness.open();
  await installFixture(h, LEDGER);
  assert.equal(await h.runtime.getConfig(LEDGER, "defaultNetwork"), "testnet");
  assert.equal((await call(h, `${LEDGER}.ledger_settings`)).defaultNetwork, "testnet");
});

Deno.test("published shape: a tool's permission capability can be denied without breaking the rest", async () => {
  await using h = await Harness.open();
  await installFixture(h, LEDGER);
  await h.runtime.setPermissions(LEDGER, {
    overrides: [{ capability: "network:fetch", decision: "deny", scope: [] }],
  });
  const e = await h.runtime.call(`${LEDGER}.ledger_balance`, { account: "a" }, { caller: "person" })
    .catch((error) => error as CortexError);
  assert.ok(e instanceof CortexError);
  assert.equal(e.code, "permission_denied");
  assert.equal((await call(h, `${LEDGER}.ledger_settings`)).timeoutMs, 9000);
});

Deno.test("published shape: state kept with ctx.state survives a restart", async () => {
  await using h = await Harness.open();
  await installFixture(h, GOALS);
  const { goalId, subgoals } = await call(h, `${GOALS}.split_goal`, { goal: "launch" });
  assert.equal(goalId, "goal-1");
  assert.equal(subgoals.length, 3, "maxSubgoals comes from the ui.settings default");
  await call(h, `${GOALS}.mark_subgoal`, { goal_id: goalId, index: 1, status: "completed" });
  await (await h.reopen()).loadAll();
  const status = await call(h, `${GOALS}.goal_status`, { goal_id: goalId });
  assert.deepEqual(status.map((s: { status: string }) => s.status), ["pending", "completed", "pending"]);
  assert.equal((await call(h, `${GOALS}.split_goal`, { goal: "again" })).goalId, "goal-2");
});
