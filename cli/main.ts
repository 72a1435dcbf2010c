/**
 * The `cortex` command.
 *
 * @example
 * ```sh
 * deno task cortex plugins list
 * ```
 *
 * @module
 */
import { daemonCommand } from "./daemon_command.ts";
import { mcpCommand } from "./mcp_command.ts";
import { modulesCommand } from "./modules_command.ts";
import type { Command } from "./command.ts";
import { EXIT, type Io, processIo } from "./output.ts";
import { callCommand } from "./plugins/call.ts";
import { configCommand } from "./plugins/config.ts";
import { infoCommand } from "./plugins/info.ts";
import { installCommand } from "./plugins/install.ts";
import { listCommand } from "./plugins/list.ts";
import { logsCommand } from "./plugins/logs.ts";
import { newCommand } from "./plugins/new.ts";
import { permissionsCommand } from "./plugins/permissions.ts";
import { schemaCommand } from "./plugins/schema.ts";
import { keygenCommand, signCommand, trustKeyCommand, verifyCommand } from "./plugins/signing.ts";
import { disableCommand, enableCommand, removeCommand } from "./plugins/toggle.ts";

/** The `plugins` verbs. */
export const PLUGIN_COMMANDS: Record<string, Command> = {
  install: installCommand,
  list: listCommand,
  info: infoCommand,
  enable: enableCommand,
  disable: disableCommand,
  remove: removeCommand,
  permissions: permissionsCommand,
  call: callCommand,
  config: configCommand,
  logs: logsCommand,
  schema: schemaCommand,
  keygen: keygenCommand,
  sign: signCommand,
  verify: verifyCommand,
  "trust-key": trustKeyCommand,
  new: newCommand,
};

/** Top-level commands. */
export const COMMANDS: Record<string, Command> = {
  daemon: daemonCommand,
  mcp: mcpCommand,
  modules: modulesCommand,
};

const HELP = `cortex: a plugin runtime

usage:
  cortex plugins <verb> ...   ${Object.keys(PLUGIN_COMMANDS).join(", ")}
  cortex daemon [--port N]
  cortex mcp serve            serve every enabled tool over MCP (stdio)
  cortex modules list         CortexFS modules with their state, pid and restarts
  cortex <command> --help     usage of one command

CORTEX_HOME chooses the home folder (default ~/.cortex).`;

/** Runs the CLI with `argv`; returns the exit code. */
export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [group, verb, ...rest] = argv;
  const json = argv.includes("--json");
  const fail = (message: string) => {
    if (json) io.out(JSON.stringify({ error: { code: "usage", message } }));
    else io.err(`error: ${message}\n\n${HELP}`);
    return EXIT.usage;
  };
  if (group === undefined || group === "--help" || group === "-h" || group === "help") {
    io.out(HELP);
    return group === undefined ? EXIT.usage : EXIT.ok;
  }
  if (group === "plugins") {
    if (verb === undefined) return fail("missing verb after 'plugins'");
    const command = PLUGIN_COMMANDS[verb];
    if (!command) return fail(`unknown verb 'plugins ${verb}'`);
    return await command(rest, io);
  }
  const command = COMMANDS[group];
  if (!command) return fail(`unknown command '${group}'`);
  return await command(argv.slice(1), io);
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
