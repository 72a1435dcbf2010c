import type { CallResult } from "../../runtime/call_path.ts";
import { CortexError } from "../../runtime/errors.ts";
import { expectPositionals, parseJsonArg } from "../args.ts";
import { defineCommand, print } from "../command.ts";
import { daemonRequest, findDaemon } from "../daemon_client.ts";
import { openRuntime } from "../open_runtime.ts";
import { EXIT, usage } from "../output.ts";

/**
 * `cortex plugins call <name> <tool> [--args '<json>']`. Goes through the
 * running daemon when there is one (so its loaded plugins and middleware
 * apply), else loads the enabled plugins in this process for the call.
 */
export const callCommand = defineCommand({
  usage: "cortex plugins call <name> <tool> [--args '<json>'] [--timeout <ms>] [--json]",
  flags: { args: { type: "string" }, timeout: { type: "string" } },
  async run(input) {
    const [name, tool] = expectPositionals(input.args, ["name", "tool"]);
    const args = input.args.flags.args === undefined
      ? {}
      : parseJsonArg(input.args.flags.args as string, "--args");
    if (typeof args !== "object" || args === null || Array.isArray(args)) {
      throw usage('--args must be a JSON object, such as \'{"name": "Ada"}\'');
    }
    const timeoutText = input.args.flags.timeout as string | undefined;
    const timeoutMs = timeoutText === undefined ? undefined : Number(timeoutText);
    if (timeoutMs !== undefined && (!Number.isInteger(timeoutMs) || timeoutMs < 1)) {
      throw usage("--timeout takes a positive number of milliseconds");
    }
    const qualified = `${name}.${tool}`;
    let result: CallResult;
    const daemon = await findDaemon();
    if (daemon) {
      result = await daemonRequest(daemon, `/api/tools/${encodeURIComponent(qualified)}/call`, {
        method: "POST",
        body: { args, timeoutMs },
      }) as CallResult;
    } else {
      const runtime = await openRuntime({ echoLog: undefined });
      try {
        runtime.plugin(name);
        const failures = await runtime.loadAll();
        const own = failures.get(name);
        if (own) throw own;
        if (!runtime.isActive(name)) {
          throw new CortexError("plugin_disabled", `plugin ${name} is disabled; enable it first`);
        }
        result = await runtime.call(qualified, args as Record<string, unknown>, {
          caller: "person",
          timeoutMs,
        });
      } finally {
        await runtime.close();
      }
    }
    print(
      input,
      result,
      () => result.success ? result.output : `error: ${result.error} (${result.errorCode})`,
    );
    return result.success ? EXIT.ok : EXIT.failed;
  },
});
