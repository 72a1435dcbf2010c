/**
 * Signed plugins through the runtime: a tree signed with a key the person
 * trusts installs as `signed` and runs in the sandbox; a tampered tree or an
 * unknown key is refused; and a key the person stops trusting stops its
 * plugins at their next load.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { SandboxLoader } from "../../loaders/worker/mod.ts";
import { EventBus } from "../../runtime/event_bus.ts";
import { CortexError } from "../../runtime/errors.ts";
import { homeLayout } from "../../runtime/home.ts";
import { Runtime } from "../../runtime/runtime.ts";
import { copyTree } from "../../runtime/copy_tree.ts";
import {
  createSignatureVerifier,
  generateKeyPair,
  signTree,
  trustKey,
  untrustKey,
} from "../../signing/mod.ts";
import { assertDenied, FIXTURES } from "./sandbox_harness.ts";

async function signedRuntime() {
  const root = await Deno.makeTempDir({ prefix: "cortex-signed-test-" });
  const home = join(root, "home");
  const keys = homeLayout(home).trustedKeys;
  const verifySignature = createSignatureVerifier(keys);
  const sandbox = new SandboxLoader({ home, verifySignature });
  const runtime = await Runtime.open({
    home,
    loaders: { esmSandboxed: sandbox },
    events: new EventBus(),
    defaultTimeoutMs: 1500,
    verifySignature,
  });
  const src = join(root, "src", "snoop");
  await copyTree(join(FIXTURES, "snoop"), src);
  return {
    root,
    home,
    keys,
    src,
    runtime,
    sandbox,
    [Symbol.asyncDispose]: async () => {
      await runtime.close();
      await sandbox.close();
      await Deno.remove(root, { recursive: true });
    },
  };
}

Deno.test("sandbox signed: a tree signed by a trusted key installs as signed and still runs sandboxed", async () => {
  await using t = await signedRuntime();
  const key = await generateKeyPair();
  await signTree(t.src, key);
  await trustKey(t.keys, key.publicKey, { name: "release" });
  const { row, loadError } = await t.runtime.install(t.src, { trust: "signed" });
  assert.equal(loadError, undefined, loadError?.message);
  assert.equal(row.trust_level, "signed");
  assert.equal(row.status, "active");
  assertDenied(
    await t.runtime.call("snoop.attempt", { what: "read", target: "/etc/passwd" }, { caller: "person" }),
  );
  assertDenied(
    await t.runtime.call("snoop.attempt", { what: "read", target: join(t.home, "data", "cortex.db") }, {
      caller: "person",
    }),
  );
});

Deno.test("sandbox signed: a tree changed after signing is refused", async () => {
  await using t = await signedRuntime();
  const key = await generateKeyPair();
  await signTree(t.src, key);
  await trustKey(t.keys, key.publicKey);
  await Deno.writeTextFile(join(t.src, "attempts.ts"), "export const attempts = {};\n");
  await assert.rejects(
    t.runtime.install(t.src, { trust: "signed" }),
    (e: unknown) =>
      e instanceof CortexError && e.code === "signature_invalid" && /changed after signing/.test(e.message),
  );
  assert.deepEqual(t.runtime.plugins(), []);
});

Deno.test("sandbox signed: a signature by a key the person does not trust is refused", async () => {
  await using t = await signedRuntime();
  await signTree(t.src, await generateKeyPair());
  await trustKey(t.keys, (await generateKeyPair()).publicKey);
  await assert.rejects(
    t.runtime.install(t.src, { trust: "signed" }),
    (e: unknown) =>
      e instanceof CortexError && e.code === "signature_invalid" && /not a trusted key/.test(e.message),
  );
  const unsigned = await t.runtime.install(t.src);
  assert.equal(unsigned.row.trust_level, "untrusted");
});

Deno.test("sandbox signed: removing a trusted key stops its plugins at their next load", async () => {
  await using t = await signedRuntime();
  const key = await generateKeyPair();
  await signTree(t.src, key);
  await trustKey(t.keys, key.publicKey);
  await t.runtime.install(t.src, { trust: "signed" });
  await untrustKey(t.keys, key.keyId);
  await t.runtime.unload("snoop");
  await assert.rejects(
    t.runtime.load("snoop"),
    (e: unknown) => e instanceof CortexError && e.code === "signature_invalid",
  );
  assert.equal(t.runtime.plugin("snoop").status, "error");
});
