import { expectPositionals } from "../args.ts";
import { defineCommand, print } from "../command.ts";
import { openRuntime } from "../open_runtime.ts";
import { EXIT } from "../output.ts";
import { pluginView } from "./view.ts";

/** `cortex plugins enable <name>`: enables and loads it once to check it works. */
export const enableCommand = defineCommand({
  usage: "cortex plugins enable <name> [--json]",
  async run(input) {
    const [name] = expectPositionals(input.args, ["name"]);
    const runtime = await openRuntime();
    try {
      await runtime.enable(name);
      const row = runtime.plugin(name);
      print(input, { plugin: pluginView(row) }, () => `enabled ${name}`);
      return EXIT.ok;
    } finally {
      await runtime.close();
    }
  },
});

/** `cortex plugins disable <name>` */
export const disableCommand = defineCommand({
  usage: "cortex plugins disable <name> [--json]",
  async run(input) {
    const [name] = expectPositionals(input.args, ["name"]);
    const runtime = await openRuntime();
    try {
      const row = await runtime.disable(name);
      print(input, { plugin: pluginView(row) }, () => `disabled ${name}`);
      return EXIT.ok;
    } finally {
      await runtime.close();
    }
  },
});

/** `cortex plugins remove <name>` */
export const removeCommand = defineCommand({
  usage: "cortex plugins remove <name> [--json]",
  async run(input) {
    const [name] = expectPositionals(input.args, ["name"]);
    const runtime = await openRuntime();
    try {
      await runtime.remove(name);
      print(input, { removed: name }, () => `removed ${name}`);
      return EXIT.ok;
    } finally {
      await runtime.close();
    }
  },
});
