import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { startDaemon } from "../server/daemon.ts";
import type { TrustLevel } from "../runtime/store/mod.ts";
import { toCortexError } from "../runtime/errors.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { expectPositionals } from "./args.ts";
import { defineCommand } from "./command.ts";
import { openRuntime } from "./open_runtime.ts";
import { EXIT, usage } from "./output.ts";

const EXAMPLES_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "examples");

/** Installs the bundled examples that are not installed yet; returns what it did. */
export async function installBundledExamples(runtime: Runtime): Promise<string[]> {
  const list = JSON.parse(await Deno.readTextFile(join(EXAMPLES_DIR, "bundled.json"))) as {
    plugins: { path: string; trust: TrustLevel }[];
  };
  const notes: string[] = [];
  const installed = new Set(runtime.plugins().map((r) => r.name));
  for (const entry of list.plugins) {
    const dir = join(EXAMPLES_DIR, entry.path);
    try {
      const plan = await runtime.planInstall(dir, { trust: entry.trust }).catch((error) => {
        if (toCortexError(error).code === "plugin_exists") return undefined;
        throw error;
      });
      if (!plan || installed.has(plan.manifest.name)) continue;
      await runtime.install(plan, { load: false });
      notes.push(`installed example ${plan.manifest.name} (${entry.trust})`);
    } catch (error) {
      notes.push(`example ${entry.path} not installed: ${toCortexError(error).message}`);
    }
  }
  return notes;
}

/** `cortex daemon [--port N] [--install-examples]` */
export const daemonCommand = defineCommand({
  usage: "cortex daemon [--port <n>] [--install-examples]",
  flags: { port: { type: "string" }, "install-examples": { type: "boolean" } },
  async run(input) {
    expectPositionals(input.args, []);
    const portText = (input.args.flags.port as string | undefined) ?? "4807";
    const port = Number(portText);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw usage(`--port takes a TCP port number from 0 to 65535, not "${portText}"`);
    }
    const daemonPorts: number[] = port === 0 ? [] : [port];
    const runtime = await openRuntime({ echoLog: (line) => input.io.err(line), daemonPorts });
    try {
      if (input.args.flags["install-examples"]) {
        for (const note of await installBundledExamples(runtime)) input.io.err(note);
      }
    } catch (error) {
      await runtime.close();
      throw error;
    }
    const daemon = await startDaemon(runtime, { port, daemonPorts });
    for (const [name, error] of daemon.loadFailures) {
      input.io.err(`plugin ${name} did not load: ${error.message}`);
    }
    input.io.err(`cortex daemon listening on ${daemon.url} (home ${runtime.home.root})`);
    input.io.err(`dashboard: ${daemon.url}/   token: ${runtime.home.token}`);
    if (input.json) input.io.out(JSON.stringify({ url: daemon.url, port: daemon.port }));
    await new Promise<void>((resolve) => {
      Deno.addSignalListener("SIGINT", resolve);
      Deno.addSignalListener("SIGTERM", resolve);
    });
    input.io.err("stopping...");
    await daemon.close();
    return EXIT.ok;
  },
});
