import assert from "node:assert/strict";
import { CortexError } from "../runtime/errors.ts";
import { generateKeyPair, keyIdOf, parseKeyPair } from "./key_pair.ts";

Deno.test("generateKeyPair makes an Ed25519 pair whose id is derived from its public key", async () => {
  const pair = await generateKeyPair();
  assert.equal(pair.algorithm, "Ed25519");
  assert.match(pair.keyId, /^[0-9a-f]{16}$/);
  assert.equal(await keyIdOf(pair.publicKey), pair.keyId);
  assert.equal(atob(pair.publicKey).length, 32);
  assert.notEqual((await generateKeyPair()).keyId, pair.keyId);
});

Deno.test("parseKeyPair reads a key file back and refuses anything else", async () => {
  const pair = await generateKeyPair();
  assert.deepEqual(parseKeyPair(JSON.stringify(pair)), pair);
  assert.throws(() => parseKeyPair("not json"), CortexError);
  assert.throws(() => parseKeyPair(JSON.stringify({ ...pair, algorithm: "RSA" })), /not a cortex-key-v1/);
});
