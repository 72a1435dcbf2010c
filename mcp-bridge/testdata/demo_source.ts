/**
 * Test fixture: a small in-memory {@link ToolSource}, standing in for the
 * runtime core in the MCP server tests.
 *
 * @module
 */
import { CortexError } from "../../runtime/errors.ts";
import type { SourceTool, ToolCaller, ToolSource } from "../server/tool_source.ts";

/** The demo source, plus what the tests observe through it. */
export interface DemoSource extends ToolSource {
  /** Fires the tool-list change listeners, as the core does when a plugin loads. */
  addTool(tool: SourceTool): void;
  /** Resolves with the caller label the first time a `slow` call is cancelled. */
  readonly cancelled: Promise<string>;
}

/** A raw JSON Schema using features zod would not round-trip, served as given. */
export const ECHO_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: { message: { type: "string", minLength: 1 }, meta: { $ref: "#/$defs/meta" } },
  required: ["message"],
  additionalProperties: false,
  $defs: { meta: { type: "object" } },
};

/** Makes a fresh demo source with `echo`, `slow`, `cancellations` and `grow`. */
export function demoSource(): DemoSource {
  const listeners = new Set<() => void>();
  const tools: SourceTool[] = [
    {
      name: "demo.echo",
      description: "Echoes the message with the caller's label",
      inputSchema: ECHO_SCHEMA,
      annotations: { readOnlyHint: true },
    },
    { name: "demo.slow", description: "Waits until cancelled", inputSchema: { type: "object" } },
    {
      name: "demo.cancellations",
      description: "How many calls were cancelled",
      inputSchema: { type: "object" },
    },
    { name: "demo.grow", description: "Adds a tool", inputSchema: { type: "object" } },
    { name: "demo.fail", description: "Fails", inputSchema: { type: "object" } },
  ];
  const cancelled = Promise.withResolvers<string>();
  let cancellations = 0;

  const addTool = (tool: SourceTool) => {
    tools.push(tool);
    for (const listener of listeners) listener();
  };

  const callTool = (name: string, args: Record<string, unknown>, caller: ToolCaller) => {
    switch (name) {
      case "demo.echo":
        return Promise.resolve({ success: true, output: `${caller.label} says ${String(args.message)}` });
      case "demo.slow":
        return new Promise<{ success: boolean; output: string }>((resolve) => {
          caller.signal?.addEventListener("abort", () => {
            cancellations++;
            cancelled.resolve(caller.label);
            resolve({ success: false, output: "cancelled" });
          }, { once: true });
        });
      case "demo.cancellations":
        return Promise.resolve({ success: true, output: String(cancellations) });
      case "demo.grow":
        addTool({ name: `demo.grown${tools.length}`, description: "grown", inputSchema: { type: "object" } });
        return Promise.resolve({ success: true, output: "grown" });
      case "demo.fail":
        return Promise.reject(new CortexError("permission_denied", "the plugin may not do that"));
      default:
        return Promise.reject(new CortexError("tool_not_found", `no tool named ${name}`));
    }
  };

  return {
    listTools: () => [...tools],
    callTool,
    onToolsChanged: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    describe: () => ({ plugins: [{ name: "demo", tools: tools.map((tool) => tool.name) }] }),
    addTool,
    cancelled: cancelled.promise,
  };
}
