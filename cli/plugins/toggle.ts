import { expectPositionals } from "../args.ts";
import { defineCommand, print } from "../command.ts";
import { withRuntime } from "../open_runtime.ts";
import { EXIT } from "../output.ts";
import { pluginView } from "./view.ts";
import type { PluginRow } from "../../runtime/store/mod.ts";
import { CortexError } from "../../runtime/errors.ts";
import { findDaemon } from "../daemon_client.ts";
import { settledLoaded, settledUnloaded, waitForDaemon } from "../daemon_follow.ts";

/** `cortex plugins enable <name>`: enables and loads it once to check it works. */
export const enableCommand = defineCommand({
  usage: "cortex plugins enable <name> [--json]",
  async run(input) {
    const [name] = expectPositionals(input.args, ["name"]);
    return await withRuntime(async (runtime) => {
      let row: PluginRow;
      if (await findDaemon()) {
        runtime.setEnabled(name, true);
        row = (await waitForDaemon(runtime, name, settledLoaded)) ?? runtime.plugin(name);
        if (row.status === "error") {
          throw new CortexError(
            "plugin_not_active",
            `${name} is enabled but did not load: ${row.error_message}`,
          );
        }
      } else {
        await runtime.enable(name);
        row = runtime.plugin(name);
      }
      print(input, { plugin: pluginView(row) }, () => `enabled ${name}`);
      return EXIT.ok;
    });
  },
});

/** `cortex plugins disable <name>` */
export const disableCommand = defineCommand({
  usage: "cortex plugins disable <name> [--json]",
  async run(input) {
    const [name] = expectPositionals(input.args, ["name"]);
    return await withRuntime(async (runtime) => {
      let row: PluginRow;
      if (await findDaemon()) {
        runtime.setEnabled(name, false);
        row = (await waitForDaemon(runtime, name, settledUnloaded)) ?? runtime.plugin(name);
      } else {
        row = await runtime.disable(name);
      }
      print(input, { plugin: pluginView(row) }, () => `disabled ${name}`);
      return EXIT.ok;
    });
  },
});

/** `cortex plugins remove <name>` */
export const removeCommand = defineCommand({
  usage: "cortex plugins remove <name> [--json]",
  async run(input) {
    const [name] = expectPositionals(input.args, ["name"]);
    return await withRuntime(async (runtime) => {
      if (await findDaemon()) {
        // Let the daemon unload it first, so onUninstall never runs beside a live copy.
        const before = runtime.setEnabled(name, false);
        if (before.status !== "unloaded") await waitForDaemon(runtime, name, settledUnloaded);
      }
      await runtime.remove(name);
      print(input, { removed: name }, () => `removed ${name}`);
      return EXIT.ok;
    });
  },
});
