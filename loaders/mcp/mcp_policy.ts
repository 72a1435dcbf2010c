import { basename } from "node:path";
import type { McpServerSpec } from "../../mcp-bridge/mod.ts";
import { CortexError } from "../../runtime/errors.ts";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** Whether a URL's host is this machine. */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname;
  return LOOPBACK_HOSTS.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Checks that a plugin may reach its MCP server: a server off this machine
 * needs `network:fetch` or `net:outbound`; a native stdio command is a
 * process the person must allow with `shell:run` granted for that command
 * (`cortex plugins permissions <name> --set shell:run=grant:<command>`). A
 * JavaScript or TypeScript server runs under Deno with permissions derived
 * from the capabilities, so it needs no grant of its own.
 */
export function checkMcpServerAllowed(
  spec: McpServerSpec,
  options: { plugin: string; capabilities: ReadonlySet<string>; grants: Record<string, string[]> },
): void {
  if (spec.transport === "http") {
    if (
      !isLoopbackUrl(spec.url) && !options.capabilities.has("network:fetch") &&
      !options.capabilities.has("net:outbound")
    ) {
      throw new CortexError(
        "permission_denied",
        `plugin ${options.plugin} reaches an MCP server off this machine (${
          new URL(spec.url).host
        }) without "network:fetch"`,
      );
    }
    return;
  }
  if (spec.sandboxed) return;
  const grant = options.grants["shell:run"];
  const command = basename(spec.command);
  const allowed = options.capabilities.has("shell:run") && grant !== undefined &&
    (grant.length === 0 || grant.includes(command) || grant.includes(spec.command));
  if (!allowed) {
    throw new CortexError(
      "permission_denied",
      `plugin ${options.plugin} starts the program "${command}"; allow it with ` +
        `'cortex plugins permissions ${options.plugin} --set shell:run=grant:${command}' (the manifest must declare "shell:run")`,
    );
  }
}
