import { serveMcpStdio } from "../mcp-bridge/mod.ts";
import { CORTEX_VERSION } from "../runtime/version.ts";
import { runtimeToolSource } from "../server/mcp_source.ts";
import { expectPositionals } from "./args.ts";
import { defineCommand } from "./command.ts";
import { openRuntime } from "./open_runtime.ts";
import { EXIT, usage } from "./output.ts";

/**
 * `cortex mcp serve`: serves every enabled tool over MCP on stdin/stdout.
 * Plugin logs go to stderr; stdout carries only the protocol.
 */
export const mcpCommand = defineCommand({
  usage: "cortex mcp serve",
  async run(input) {
    const [verb] = expectPositionals(input.args, ["verb"]);
    if (verb !== "serve") throw usage(`unknown verb 'mcp ${verb}'`);
    const runtime = await openRuntime({ echoLog: (line) => input.io.err(line) });
    try {
      for (const [name, error] of await runtime.loadAll()) {
        input.io.err(`plugin ${name} did not load: ${error.message}`);
      }
      const served = await serveMcpStdio(runtimeToolSource(runtime), {
        name: "cortex",
        version: CORTEX_VERSION,
      });
      await served.done;
      return EXIT.ok;
    } finally {
      await runtime.close();
    }
  },
});
