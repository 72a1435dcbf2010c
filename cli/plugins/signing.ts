import {
  generateKeyPair,
  parseKeyPair,
  readTrustedKeys,
  signTree,
  trustKey,
  verifyTree,
} from "../../signing/mod.ts";
import { CortexError } from "../../runtime/errors.ts";
import { defaultHome, homeLayout } from "../../runtime/home.ts";
import { expectPositionals } from "../args.ts";
import { defineCommand, print } from "../command.ts";
import { withRuntime } from "../open_runtime.ts";
import { EXIT, usage } from "../output.ts";

/** `cortex plugins keygen <key file>`: a new Ed25519 key pair, written owner-only. */
export const keygenCommand = defineCommand({
  usage: "cortex plugins keygen <key file> [--trust] [--name <who>] [--json]",
  flags: { trust: { type: "boolean" }, name: { type: "string" } },
  async run(input) {
    const [file] = expectPositionals(input.args, ["key file"]);
    const pair = await generateKeyPair();
    try {
      await Deno.writeTextFile(file, JSON.stringify(pair, null, 2) + "\n", { mode: 0o600, createNew: true });
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists) {
        throw usage(`${file} exists; a key file is never overwritten`);
      }
      throw error;
    }
    await Deno.chmod(file, 0o600);
    if (input.args.flags.trust) {
      await trustKey(homeLayout(defaultHome()).trustedKeys, pair.publicKey, {
        name: (input.args.flags.name as string | undefined) ?? file,
      });
    }
    print(
      input,
      {
        keyFile: file,
        keyId: pair.keyId,
        publicKey: pair.publicKey,
        trusted: Boolean(input.args.flags.trust),
      },
      () => `wrote ${file} (key ${pair.keyId}); public key ${pair.publicKey}`,
    );
    return EXIT.ok;
  },
});

/** `cortex plugins trust-key <public key> [--name who]`: adds a key to `<home>/trusted_keys.json`. */
export const trustKeyCommand = defineCommand({
  usage: "cortex plugins trust-key <public key (base64)> [--name <who>] [--json]",
  flags: { name: { type: "string" } },
  async run(input) {
    const [publicKey] = expectPositionals(input.args, ["public key"]);
    const key = await trustKey(homeLayout(defaultHome()).trustedKeys, publicKey, {
      name: input.args.flags.name as string | undefined,
    });
    print(input, { trusted: key }, () => `trusted key ${key.keyId} (${key.name})`);
    return EXIT.ok;
  },
});

/** `cortex plugins sign <folder> --key <key file>`: writes `cortex.sig` over the folder's tree hash. */
export const signCommand = defineCommand({
  usage: "cortex plugins sign <folder> --key <key file> [--json]",
  flags: { key: { type: "string" } },
  async run(input) {
    const [folder] = expectPositionals(input.args, ["folder"]);
    const keyFile = input.args.flags.key as string | undefined;
    if (!keyFile) throw usage("--key <key file> is required (make one with 'cortex plugins keygen')");
    let text: string;
    try {
      text = await Deno.readTextFile(keyFile);
    } catch (error) {
      throw new CortexError("signature_invalid", `cannot read ${keyFile}: ${(error as Error).message}`);
    }
    const signature = await signTree(folder, parseKeyPair(text));
    print(
      input,
      { signed: folder, keyId: signature.keyId },
      () => `signed ${folder} with key ${signature.keyId}`,
    );
    return EXIT.ok;
  },
});

/**
 * `cortex plugins verify <folder | installed name>`: checks the signature
 * against the person's trusted keys. Exit 1 when it does not verify.
 */
export const verifyCommand = defineCommand({
  usage: "cortex plugins verify <folder | installed plugin name> [--json]",
  async run(input) {
    const [target] = expectPositionals(input.args, ["folder or name"]);
    let dir = target;
    if (/^[a-z0-9]+(-[a-z0-9]+)*$/.test(target)) {
      await withRuntime((runtime) => {
        if (runtime.plugins().some((r) => r.name === target)) dir = `${runtime.home.pluginsDir}/${target}`;
      });
    }
    const verdict = await verifyTree(dir, await readTrustedKeys(homeLayout(defaultHome()).trustedKeys));
    print(input, verdict, () => `${verdict.ok ? "verified" : "NOT verified"}: ${verdict.reason}`);
    return verdict.ok ? EXIT.ok : EXIT.failed;
  },
});
