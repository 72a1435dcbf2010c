import { manifestJsonSchema } from "../../manifest/schema.ts";
import { expectPositionals } from "../args.ts";
import { defineCommand } from "../command.ts";
import { EXIT } from "../output.ts";

/** `cortex plugins schema`: the manifest JSON Schema. */
export const schemaCommand = defineCommand({
  usage: "cortex plugins schema",
  run(input) {
    expectPositionals(input.args, []);
    input.io.out(JSON.stringify(manifestJsonSchema(), null, 2));
    return Promise.resolve(EXIT.ok);
  },
});
