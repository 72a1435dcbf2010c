import type { PluginContext, Tool, ToolCallResult } from "cortex/plugins";

async function bump(ctx: PluginContext): Promise<number> {
  const next = Number((await ctx.state.get("greetings")) ?? "0") + 1;
  await ctx.state.set("greetings", String(next));
  return next;
}

const greet: Tool = {
  definition: {
    name: "greet",
    description: "Greets someone by name",
    params: [{ name: "name", type: "string", description: "Who to greet", required: true }],
    capabilities: [],
  },
  async execute(args, ctx): Promise<ToolCallResult> {
    const greeting = (await ctx.config.get<string>("greeting")) ?? "Hello";
    const text = `${greeting}, ${args.name}!`;
    await bump(ctx);
    return {
      toolName: "greet",
      success: true,
      output: args.style === "loud" ? text.toUpperCase() : text,
      durationMs: 0,
    };
  },
};

const count: Tool = {
  definition: { name: "count", description: "How many greetings so far", params: [], capabilities: [] },
  async execute(_args, ctx): Promise<ToolCallResult> {
    return {
      toolName: "count",
      success: true,
      output: (await ctx.state.get("greetings")) ?? "0",
      durationMs: 0,
    };
  },
};

export const tools: Tool[] = [greet, count];

export async function onLoad(ctx: PluginContext): Promise<void> {
  ctx.logger.info("hello loaded");
  await ctx.state.set("loaded_at", new Date().toISOString());
}

export function onConfigChange(key: string, value: unknown, ctx: PluginContext): void {
  ctx.logger.info(`config ${key} is now ${JSON.stringify(value)}`);
}
