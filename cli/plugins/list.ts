import { expectPositionals } from "../args.ts";
import { defineCommand, print } from "../command.ts";
import { withRuntime } from "../open_runtime.ts";
import { EXIT, table } from "../output.ts";
import { pluginView } from "./view.ts";

/** `cortex plugins list [--json]` */
export const listCommand = defineCommand({
  usage: "cortex plugins list [--json]",
  async run(input) {
    expectPositionals(input.args, []);
    return await withRuntime((runtime) => {
      const rows = runtime.plugins();
      print(
        input,
        { plugins: rows.map(pluginView) },
        () =>
          rows.length === 0 ? "no plugins installed" : table(
            ["NAME", "VERSION", "KIND", "TRUST", "ENABLED", "STATUS"],
            rows.map((r) => [r.name, r.version, r.type, r.trust_level, r.enabled ? "yes" : "no", r.status]),
          ),
      );
      return EXIT.ok;
    });
  },
});
