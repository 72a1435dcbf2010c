import type { PluginContext, Tool } from "cortex/plugins";

const heard: string[] = [];

export function onEvent(type: string, payload: unknown, _ctx: PluginContext): void {
  if (type === "tool:post-execute") {
    const name = (payload as { toolName?: string }).toolName ?? "?";
    if (!name.startsWith("event-recorder.")) heard.push(name);
  } else {
    heard.push(type);
  }
  if (heard.length > 100) heard.shift();
}

export const tools: Tool[] = [{
  definition: { name: "recent", description: "The tool calls heard so far", params: [], capabilities: [] },
  execute: () => ({ toolName: "recent", success: true, output: JSON.stringify(heard), durationMs: 0 }),
}];
