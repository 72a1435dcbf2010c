import { join } from "node:path";

/** Where everything the runtime writes lives, under one home folder. */
export interface HomeLayout {
  /** The home folder itself. */
  root: string;
  /** The SQLite database. */
  database: string;
  /** Installed plugins' code: one folder per plugin. */
  pluginsDir: string;
  /** Plugins' data folders, separate from their code. */
  pluginDataDir: string;
  /** Where installs are staged before they appear. */
  stagingDir: string;
  /** `config.json`. */
  config: string;
  /** Per-plugin logs. */
  logsDir: string;
  /** The daemon's bearer token. */
  token: string;
  /** Runtime-owned sockets. */
  socketsDir: string;
  /** Public keys the person trusts for signed plugins. */
  trustedKeys: string;
}

/** The home folder: `CORTEX_HOME`, else `~/.cortex`. */
export function defaultHome(): string {
  const fromEnv = Deno.env.get("CORTEX_HOME");
  if (fromEnv) return fromEnv;
  const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE") ?? ".";
  return join(home, ".cortex");
}

/** The layout of the home folder at `root`. */
export function homeLayout(root: string): HomeLayout {
  const data = join(root, "data");
  return {
    root,
    database: join(data, "cortex.db"),
    pluginsDir: join(data, "plugins"),
    pluginDataDir: join(data, "plugin-data"),
    stagingDir: join(data, "staging"),
    config: join(root, "config.json"),
    logsDir: join(root, "logs"),
    token: join(root, "daemon.token"),
    socketsDir: join(root, "sockets"),
    trustedKeys: join(root, "trusted_keys.json"),
  };
}

/** Creates the home's folders (owner-only) if they do not exist. */
export async function ensureHome(layout: HomeLayout): Promise<void> {
  for (
    const dir of [
      layout.root,
      join(layout.root, "data"),
      layout.pluginsDir,
      layout.pluginDataDir,
      layout.stagingDir,
      layout.logsDir,
    ]
  ) {
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  }
}
