import { expectPositionals } from "../args.ts";
import { defineCommand, print } from "../command.ts";
import { withRuntime } from "../open_runtime.ts";
import { EXIT } from "../output.ts";
import { declaredTools, pluginView } from "./view.ts";

/** `cortex plugins info <name> [--json]` */
export const infoCommand = defineCommand({
  usage: "cortex plugins info <name> [--json]",
  async run(input) {
    const [name] = expectPositionals(input.args, ["name"]);
    return await withRuntime((runtime) => {
      const view = pluginView(runtime.plugin(name));
      const tools = declaredTools(runtime, name);
      const permissions = runtime.permissions(name);
      print(input, { plugin: view, tools, permissions }, () =>
        [
          ...Object.entries(view).map(([k, v]) =>
            `${k.padEnd(20)} ${Array.isArray(v) ? v.join(", ") : v ?? ""}`
          ),
          `tools`,
          ...tools.map((t) => `  ${t.name}  ${t.description}`),
          `overrides`,
          ...permissions.overrides.map((o) =>
            `  ${o.capability}=${o.decision}${o.scope.length ? `:${o.scope.join(",")}` : ""}`
          ),
        ].join("\n"));
      return EXIT.ok;
    });
  },
});
