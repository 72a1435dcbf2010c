/**
 * Test fixture: the MCP project's own inspector CLI, pinned, as an outside
 * client that nobody here wrote.
 *
 * @module
 */
import { join } from "node:path";

/** The pinned inspector CLI. */
export const INSPECTOR = "npm:@modelcontextprotocol/inspector-cli@1.0.3/build/index.js";

/**
 * Runs the inspector CLI with `args`. It looks for `../package.json` relative
 * to its working folder (and then imports it relative to itself), so it runs
 * from a folder whose parent holds a package.json.
 */
export async function inspect(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const root = await Deno.makeTempDir({ prefix: "cortex-inspector-" });
  try {
    await Deno.writeTextFile(join(root, "package.json"), "{}");
    await Deno.mkdir(join(root, "run"));
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--no-config", INSPECTOR, ...args],
      cwd: join(root, "run"),
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}
