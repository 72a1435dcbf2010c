/**
 * Test support for the MCP integration tests: the MCP SDK's own client (an
 * outside client nobody here wrote), the MCP Inspector CLI, and small waits
 * that fail loudly instead of hanging.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

// The SDK's `./*` export maps types to `*.js.d.ts`; each import takes its types from the extension-less path.
// @ts-types="@modelcontextprotocol/sdk/client/index"
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
export { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
export { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

/** The repository root (where `deno.json` and `cli/main.ts` are). */
export const REPO_ROOT: string = fileURLToPath(new URL("../../", import.meta.url));

/** The fixtures of the MCP integration tests (`test/mcp/fixtures`). */
export const MCP_FIXTURES_DIR: string = join(REPO_ROOT, "test", "mcp", "fixtures");

/** The example plugins (`examples/`). */
export const EXAMPLES_DIR: string = join(REPO_ROOT, "examples");

export { refusal } from "./harness.ts";

/**
 * Waits for `promise`, failing with `what` after `guardMs`. The guard only
 * turns a hang into a readable failure; no assertion depends on the time.
 */
export async function within<T>(promise: Promise<T>, what: string, guardMs = 20_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up waiting for ${what}`)), guardMs);
  });
  try {
    return await Promise.race([promise, guard]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Checks `condition` until it holds (something another process writes, such
 * as a log line), failing with `what` after `guardMs`.
 */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  what: string,
  guardMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + guardMs;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export { inspect, INSPECTOR } from "../../mcp-bridge/testdata/inspector.ts";

/** The first text block of an MCP tool result. */
export function firstText(result: Record<string, unknown>): string {
  const content = (result.content ?? []) as { type: string; text?: string }[];
  const block = content.find((c) => c.type === "text");
  assert.ok(block?.text !== undefined, `expected a text block in ${JSON.stringify(result.content)}`);
  return block.text;
}
