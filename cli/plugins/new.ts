import { fileURLToPath } from "node:url";
import { createPlugin, type PluginKind, type PluginLanguage } from "../../scaffold/mod.ts";
import { expectPositionals } from "../args.ts";
import { defineCommand, print } from "../command.ts";
import { EXIT } from "../output.ts";

/** `cortex plugins new <name> [--kind esm|wasm] [--lang c|assemblyscript] [--dir <parent>] [--json]` */
export const newCommand = defineCommand({
  usage:
    "cortex plugins new <name> [--kind esm|wasm] [--lang c|assemblyscript] [--dir <parent folder>] [--json]",
  flags: { kind: { type: "string" }, lang: { type: "string" }, dir: { type: "string" } },
  async run(input) {
    const [name] = expectPositionals(input.args, ["name"]);
    const lang = input.args.flags.lang as PluginLanguage | undefined;
    // A language only makes sense for WASM, so it chooses the kind when --kind is left out.
    const kind = (input.args.flags.kind ?? (lang ? "wasm" : "esm")) as PluginKind;
    const created = await createPlugin(name, {
      kind,
      lang,
      parent: input.args.flags.dir as string | undefined,
    });
    const test = kind === "esm" ? "mod_test.ts" : "plugin_test.ts";
    const config = fileURLToPath(new URL("../../deno.json", import.meta.url));
    print(input, { created }, () =>
      [
        `created ${created.dir} (${[kind, created.lang].filter(Boolean).join(", ")})`,
        ...created.files.map((f) => `  ${f}`),
        "",
        "next:",
        `  cd ${created.dir}`,
        `  deno test -A --unstable-worker-options --config ${config} ${test}`,
        "  (README.md says how to build, test and install it)",
      ].join("\n"));
    return EXIT.ok;
  },
});
