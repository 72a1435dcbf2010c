import { expectPositionals, parseJsonArg } from "../args.ts";
import { defineCommand, print } from "../command.ts";
import { withRuntime } from "../open_runtime.ts";
import { EXIT } from "../output.ts";

/** `cortex plugins config <name> [<key> [<json value>]]` */
export const configCommand = defineCommand({
  usage: "cortex plugins config <name> [<key> [<json value>]] [--json]",
  async run(input) {
    const [name, key, valueText] = expectPositionals(input.args, ["name", "key", "json value"], 2);
    return await withRuntime(async (runtime) => {
      if (valueText !== undefined) {
        const value = parseJsonArg(valueText, `the value for "${key}"`);
        await runtime.setConfig(name, key, value);
        print(input, { name, key, value }, () => `${name}.${key} = ${JSON.stringify(value)}`);
      } else {
        const value = await runtime.getConfig(name, key);
        print(
          input,
          key === undefined ? { name, config: value } : { name, key, value },
          () => JSON.stringify(value, null, 2),
        );
      }
      return EXIT.ok;
    });
  },
});
