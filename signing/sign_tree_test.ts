import assert from "node:assert/strict";
import { join } from "node:path";
import { hashTree } from "../runtime/hash.ts";
import { pluginTree } from "./_test_tree.ts";
import { generateKeyPair } from "./key_pair.ts";
import { readSignatureFile } from "./signature_file.ts";
import { signTree } from "./sign_tree.ts";
import { SIGNATURE_FILE, treeHashes } from "./tree_hashes.ts";
import { verifyTree } from "./verify_tree.ts";
import type { TrustedKey } from "./trusted_keys.ts";

const trust = (pair: { keyId: string; publicKey: string }): TrustedKey[] => [
  { keyId: pair.keyId, publicKey: pair.publicKey, name: "tester", addedAt: "" },
];

Deno.test("signTree writes cortex.sig over every file but itself, and verifyTree accepts it", async () => {
  const dir = await pluginTree();
  const key = await generateKeyPair();
  const sig = await signTree(dir, key);
  assert.deepEqual(await readSignatureFile(dir), sig);
  const hashes = await treeHashes(dir);
  assert.equal(sig.treeHash, hashes.signed);
  assert.equal(hashes.full, await hashTree(dir));
  const verdict = await verifyTree(dir, trust(key), { treeHash: hashes.full });
  assert.deepEqual(verdict, {
    ok: true,
    reason: `signed by tester (${key.keyId})`,
    keyId: key.keyId,
    treeHash: hashes.full,
  });
  await Deno.remove(dir, { recursive: true });
});

Deno.test("verifyTree refuses a tree changed after signing, a new file, and an unknown key", async () => {
  const dir = await pluginTree();
  const key = await generateKeyPair();
  await signTree(dir, key);
  assert.match((await verifyTree(dir, [])).reason, /not a trusted key/);
  const stranger = await generateKeyPair();
  assert.equal((await verifyTree(dir, trust(stranger))).ok, false);
  await Deno.writeTextFile(join(dir, "extra.ts"), "export {};\n");
  assert.match((await verifyTree(dir, trust(key))).reason, /changed after signing/);
  await Deno.remove(join(dir, "extra.ts"));
  assert.equal((await verifyTree(dir, trust(key))).ok, true);
  await Deno.writeTextFile(join(dir, "mod.ts"), "export const tools = [];\n");
  assert.match((await verifyTree(dir, trust(key))).reason, /changed after signing/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("verifyTree refuses a forged signature, a re-pointed tree hash, and a missing signature", async () => {
  const dir = await pluginTree();
  const key = await generateKeyPair();
  const sig = await signTree(dir, key);
  const bytes = Uint8Array.from(atob(sig.signature), (c) => c.charCodeAt(0));
  bytes[0] ^= 1;
  const forged = { ...sig, signature: btoa(String.fromCharCode(...bytes)) };
  await Deno.writeTextFile(join(dir, SIGNATURE_FILE), JSON.stringify(forged));
  assert.match((await verifyTree(dir, trust(key))).reason, /does not verify/);
  // A signature made by a trusted key for some other tree, pasted onto this one.
  const other = await pluginTree("other-plugin");
  const otherSig = await signTree(other, key);
  await Deno.writeTextFile(join(dir, SIGNATURE_FILE), JSON.stringify(otherSig));
  assert.match((await verifyTree(dir, trust(key))).reason, /do not match the signed tree hash/);
  await Deno.remove(join(dir, SIGNATURE_FILE));
  assert.match((await verifyTree(dir, trust(key))).reason, /no cortex.sig/);
  await Deno.remove(dir, { recursive: true });
  await Deno.remove(other, { recursive: true });
});

Deno.test("verifyTree binds to the install plan's tree hash", async () => {
  const dir = await pluginTree();
  const key = await generateKeyPair();
  await signTree(dir, key);
  const verdict = await verifyTree(dir, trust(key), { treeHash: "0".repeat(64) });
  assert.match(verdict.reason, /changed after the install plan was made/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("signTree never signs a tampered tree, a mismatched key file, or an untrusted key", async () => {
  const dir = await pluginTree();
  const key = await generateKeyPair();
  const manifest = JSON.parse(await Deno.readTextFile(join(dir, "manifest.json")));
  await Deno.writeTextFile(join(dir, "manifest.json"), JSON.stringify({ ...manifest, hash: "0".repeat(64) }));
  await assert.rejects(signTree(dir, key), /does not match the manifest's hash/);
  await Deno.writeTextFile(join(dir, "manifest.json"), JSON.stringify(manifest));
  await assert.rejects(signTree(dir, key, { expectedTreeHash: "0".repeat(64) }), /its files changed/);
  const other = await generateKeyPair();
  await assert.rejects(signTree(dir, { ...key, publicKey: other.publicKey }), /do not belong together/);
  await assert.rejects(signTree(dir, key, { requireTrusted: trust(other) }), /not a trusted key/);
  await assert.rejects(Deno.stat(join(dir, SIGNATURE_FILE)), Deno.errors.NotFound);
  await Deno.remove(dir, { recursive: true });
});
