import assert from "node:assert/strict";
import { join } from "node:path";
import { CortexError } from "../runtime/errors.ts";
import { generateKeyPair } from "./key_pair.ts";
import { readTrustedKeys, trustKey, untrustKey } from "./trusted_keys.ts";

Deno.test("trusted keys: add, replace, remove, and an absent file means none", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "trusted_keys.json");
  assert.deepEqual(await readTrustedKeys(path), []);
  const a = await generateKeyPair();
  const b = await generateKeyPair();
  await trustKey(path, a.publicKey, { name: "a" });
  await trustKey(path, b.publicKey, { name: "b" });
  await trustKey(path, a.publicKey, { name: "a again" });
  const keys = await readTrustedKeys(path);
  assert.deepEqual(keys.map((k) => [k.keyId, k.name]), [[b.keyId, "b"], [a.keyId, "a again"]]);
  assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
  assert.equal(await untrustKey(path, b.keyId), true);
  assert.equal(await untrustKey(path, b.keyId), false);
  assert.deepEqual((await readTrustedKeys(path)).map((k) => k.keyId), [a.keyId]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("trusted keys: a malformed file or key is refused", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "trusted_keys.json");
  await Deno.writeTextFile(path, "[]");
  await assert.rejects(readTrustedKeys(path), CortexError);
  await assert.rejects(trustKey(join(dir, "other.json"), "AAAA"), /not a valid Ed25519 key/);
  await Deno.remove(dir, { recursive: true });
});
