import type { PluginContext, PreMiddlewareResult, ToolCallResult } from "cortex/plugins";

export async function preMiddleware(
  toolName: string,
  args: Record<string, unknown>,
  ctx: PluginContext,
): Promise<PreMiddlewareResult> {
  const blocked = (await ctx.config.get<string>("blockedWord")) ?? "rm -rf";
  if (JSON.stringify(args).includes(blocked)) {
    ctx.logger.warn(`blocked ${toolName}`);
    return { allowed: false, reason: `blocked by safety-guard: arguments mention "${blocked}"` };
  }
  return { allowed: true, args };
}

export function postMiddleware(
  _toolName: string,
  result: ToolCallResult,
  _ctx: PluginContext,
): ToolCallResult {
  return result;
}
