import { join } from "node:path";
import type { PluginLogger } from "../plugin_api/types.ts";

/** Log levels, lowest first. */
export type LogLevel = "debug" | "info" | "warn" | "error";

/** Largest log file before it is rotated to `<name>.log.1`. */
const MAX_LOG_BYTES = 2 * 1024 * 1024;

/** Longest line kept; longer messages are cut with a marker. */
const MAX_LINE_CHARS = 8192;

/** The path of a plugin's log file. */
export function pluginLogPath(logsDir: string, plugin: string): string {
  return join(logsDir, `${plugin}.log`);
}

/**
 * Creates the logger for one plugin. Each line is appended to
 * `<logs>/<plugin>.log` as `ISO-time LEVEL message`, and echoed to `echo`
 * when given (the daemon prints `[plugin:<name>]` lines).
 */
export function createPluginLogger(
  logsDir: string,
  plugin: string,
  options: { echo?: (line: string) => void } = {},
): PluginLogger & { write(level: LogLevel, msg: string): void } {
  const path = pluginLogPath(logsDir, plugin);
  let written = -1;
  const write = (level: LogLevel, msg: unknown) => {
    let text = typeof msg === "string" ? msg : String(msg);
    if (text.length > MAX_LINE_CHARS) text = text.slice(0, MAX_LINE_CHARS) + " [cut]";
    text = text.replaceAll("\n", "\\n");
    const line = `${new Date().toISOString()} ${level.toUpperCase()} ${text}\n`;
    try {
      if (written < 0) {
        written = Deno.statSync(path).size;
      }
    } catch {
      written = 0;
    }
    try {
      if (written > MAX_LOG_BYTES) {
        Deno.renameSync(path, `${path}.1`);
        written = 0;
      }
      Deno.writeTextFileSync(path, line, { append: true, mode: 0o600 });
      written += line.length;
    } catch {
      // A log that cannot be written must never fail the plugin's work.
    }
    options.echo?.(`[plugin:${plugin}] ${level} ${text}`);
  };
  return {
    write,
    debug: (msg) => write("debug", msg),
    info: (msg) => write("info", msg),
    warn: (msg) => write("warn", msg),
    error: (msg) => write("error", msg),
  };
}
