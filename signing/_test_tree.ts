/** A small plugin folder for the signing tests. Internal to `signing/` tests. */
import { join } from "node:path";

/** Writes a minimal plugin into a new temporary folder; returns the folder. */
export async function pluginTree(name = "signed-hello"): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "cortex-signing-" });
  await Deno.writeTextFile(
    join(dir, "manifest.json"),
    JSON.stringify({
      name,
      version: "1.0.0",
      description: "a plugin to sign",
      kind: "esm",
      entryPoint: "mod.ts",
      runtime: "deno",
      capabilities: ["tools"],
    }),
  );
  await Deno.writeTextFile(
    join(dir, "mod.ts"),
    `export const tools = [{
  definition: { name: "hi", description: "", params: [], capabilities: [] },
  execute: () => ({ toolName: "hi", success: true, output: "hi from ${name}", durationMs: 0 }),
}];\n`,
  );
  return dir;
}
