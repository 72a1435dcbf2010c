import type { PluginContext, Tool, ToolCallResult } from "cortex/plugins";

async function bump(ctx: PluginContext, key: string, by: number): Promise<number> {
  const next = Number((await ctx.state.get(key)) ?? "0") + by;
  await ctx.state.set(key, String(next));
  return next;
}

const count: Tool = {
  definition: {
    name: "count",
    description: "Counts the words of a text and adds them to the running total",
    params: [{ name: "text", type: "string", description: "The text", required: true }],
    capabilities: [],
  },
  async execute(args, ctx): Promise<ToolCallResult> {
    const words = String(args.text).split(/\s+/).filter((w) => w !== "").length;
    await bump(ctx, "words", words);
    await bump(ctx, "texts", 1);
    return { toolName: "count", success: true, output: String(words), durationMs: 0 };
  },
};

const totals: Tool = {
  definition: { name: "totals", description: "Totals so far", params: [], capabilities: [] },
  async execute(_args, ctx): Promise<ToolCallResult> {
    return {
      toolName: "totals",
      success: true,
      output: JSON.stringify(await ctx.state.list()),
      durationMs: 0,
    };
  },
};

export const tools: Tool[] = [count, totals];

export async function onEvent(type: string, _payload: unknown, ctx: PluginContext): Promise<void> {
  if (type === "session:start") await bump(ctx, "sessions", 1);
}
