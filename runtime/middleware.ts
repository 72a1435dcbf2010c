/**
 * The middleware chain. Each middleware gets the tool's own name (as in the
 * reference, so a published guard that blocks `"shell_exec"` blocks every
 * plugin's `shell_exec`) and, as its fourth argument, the qualified name,
 * owner and caller. Pre-middleware run in ascending plugin-name order,
 * each seeing the arguments the previous one passed on; post-middleware run
 * in the same order, each seeing the result the previous one returned. A
 * pre-middleware that throws, times out or answers malformed rejects the
 * call (fail closed); a post-middleware that does so leaves the result as it
 * was and is logged.
 *
 * @module
 */
import { z } from "zod";
import type { ToolCallResult } from "../plugin_api/types.ts";
import type { LoadedPlugin, MiddlewareCall } from "./loader.ts";
import { withDeadline } from "./deadline.ts";
import { CortexError, toCortexError } from "./errors.ts";

/** One plugin's middleware. */
export interface MiddlewareEntry {
  /** The plugin that provides it. */
  plugin: string;
  /** Its loaded form. */
  loaded: LoadedPlugin;
  /** Deadline in ms. */
  timeoutMs: number;
  /** Whether it runs before calls. */
  pre: boolean;
  /** Whether it runs after calls. */
  post: boolean;
}

const preAnswerSchema = z.union([
  z.object({ allowed: z.literal(true), args: z.record(z.string(), z.unknown()).optional() })
    .loose(),
  z.object({ allowed: z.literal(false), reason: z.string().optional() }).loose(),
]);

const resultSchema = z.object({
  success: z.boolean(),
  output: z.string(),
  error: z.string().optional(),
}).loose();

/** The outcome of the pre chain. */
export type PreOutcome =
  | { allowed: true; args: Record<string, unknown> }
  | { allowed: false; code: string; reason: string; plugin: string };

/** The ordered middleware of the loaded plugins. */
export class MiddlewareChain {
  #entries: MiddlewareEntry[] = [];

  /** Adds or replaces a plugin's middleware. */
  set(entry: MiddlewareEntry): void {
    this.remove(entry.plugin);
    if (!entry.pre && !entry.post) return;
    this.#entries.push(entry);
    this.#entries.sort((a, b) => (a.plugin < b.plugin ? -1 : a.plugin > b.plugin ? 1 : 0));
  }

  /** Removes a plugin's middleware. */
  remove(plugin: string): void {
    this.#entries = this.#entries.filter((e) => e.plugin !== plugin);
  }

  /** Whether any middleware is registered (the call path skips the chain otherwise). */
  get isEmpty(): boolean {
    return this.#entries.length === 0;
  }

  /** The plugins with middleware, in the order they run. */
  plugins(): string[] {
    return this.#entries.map((e) => e.plugin);
  }

  /** Runs the pre chain. */
  async runPre(
    call: MiddlewareCall & { toolName: string },
    args: Record<string, unknown>,
  ): Promise<PreOutcome> {
    const { toolName, ...info } = call;
    let current = args;
    for (const entry of this.#entries) {
      if (!entry.pre || !entry.loaded.preMiddleware) continue;
      let answer: unknown;
      try {
        answer = await withDeadline(
          (signal) => entry.loaded.preMiddleware!(toolName, current, signal, info),
          entry.timeoutMs,
          {
            code: "middleware_failed",
            message: `pre-middleware of ${entry.plugin} did not answer within ${entry.timeoutMs} ms`,
          },
        );
      } catch (error) {
        const e = toCortexError(error, "middleware_failed");
        return {
          allowed: false,
          code: "middleware_failed",
          plugin: entry.plugin,
          reason: `pre-middleware of ${entry.plugin} failed: ${e.message}`,
        };
      }
      const parsed = preAnswerSchema.safeParse(answer);
      if (!parsed.success) {
        return {
          allowed: false,
          code: "middleware_failed",
          plugin: entry.plugin,
          reason:
            `pre-middleware of ${entry.plugin} answered malformed (expected { allowed, args? } or { allowed: false, reason })`,
        };
      }
      if (!parsed.data.allowed) {
        return {
          allowed: false,
          code: "middleware_rejected",
          plugin: entry.plugin,
          reason: parsed.data.reason ?? `rejected by ${entry.plugin}`,
        };
      }
      if (parsed.data.args) current = parsed.data.args;
    }
    return { allowed: true, args: current };
  }

  /** Runs the post chain; a failing post-middleware is reported through `onError`. */
  async runPost(
    call: MiddlewareCall & { toolName: string },
    result: ToolCallResult,
    onError: (plugin: string, error: CortexError) => void,
  ): Promise<ToolCallResult> {
    const { toolName, ...info } = call;
    let current = result;
    for (const entry of this.#entries) {
      if (!entry.post || !entry.loaded.postMiddleware) continue;
      try {
        const answer = await withDeadline(
          (signal) => entry.loaded.postMiddleware!(toolName, current, signal, info),
          entry.timeoutMs,
          {
            code: "middleware_failed",
            message: `post-middleware of ${entry.plugin} did not answer within ${entry.timeoutMs} ms`,
          },
        );
        const parsed = resultSchema.safeParse(answer);
        if (!parsed.success) {
          throw new CortexError(
            "middleware_failed",
            `post-middleware of ${entry.plugin} returned something that is not a ToolCallResult`,
          );
        }
        current = {
          ...current,
          success: parsed.data.success,
          output: parsed.data.output,
          ...(parsed.data.error !== undefined ? { error: parsed.data.error } : {}),
        };
        if (parsed.data.success && parsed.data.error === undefined) delete current.error;
      } catch (error) {
        onError(entry.plugin, toCortexError(error, "middleware_failed"));
      }
    }
    return current;
  }
}
