/**
 * The one call path. Every tool call, whoever makes it, goes through
 * {@link CallPath.call}, in this order:
 *
 * caller label (set by the runtime) -> registry lookup -> policy ->
 * argument validation -> pre-middleware -> `tool:pre-execute` -> the
 * loader's boundary, with a deadline -> post-middleware ->
 * `tool:post-execute` -> audit row (queued, off the caller's path) -> result.
 *
 * @module
 */
import type { ToolCallResult } from "../plugin_api/types.ts";
import { withDeadline } from "./deadline.ts";
import { CortexError, toCortexError } from "./errors.ts";
import type { EventBus } from "./event_bus.ts";
import type { MiddlewareChain } from "./middleware.ts";
import { type CallerLabel, isCallerLabel } from "./policy.ts";
import type { AuditLog } from "./store/mod.ts";
import type { ToolCallContext, ToolRecord, ToolRegistry } from "./tool_registry.ts";

/** What a caller may say about a call. The caller label is set by the front door. */
export interface CallOptions {
  /** Who is calling: set by the runtime's front door, never taken from input. */
  caller: CallerLabel;
  /** Agent session id. */
  sessionId?: string;
  /** Agent id. */
  agentId?: string;
  /** Caller's working directory. */
  workingDir?: string;
  /** Caller's workspace root. */
  workspaceDir?: string;
  /** A shorter deadline than the plugin's, in ms. */
  timeoutMs?: number;
  /** The caller giving up. */
  signal?: AbortSignal;
}

/** A result as the runtime returns it: the documented fields plus a stable code on failure. */
export interface CallResult extends ToolCallResult {
  /** Set when the call failed: the stable error code. */
  errorCode?: string;
}

/** What the call path needs to know about a tool's owner. */
export interface OwnerState {
  /** Whether the owner is enabled and active. */
  active: boolean;
  /** Why not, when it is not (code and message). */
  reason?: CortexError;
  /** The owner's effective capabilities. */
  capabilities: ReadonlySet<string>;
  /** The owner's deadline per call, in ms. */
  timeoutMs: number;
}

/** The parts the call path is made of. */
export interface CallPathParts {
  /** Registered tools. */
  registry: ToolRegistry;
  /** Middleware of loaded plugins. */
  middleware: MiddlewareChain;
  /** Where `tool:pre-execute` and `tool:post-execute` go. */
  events: EventBus;
  /** The audit log. */
  audit: AuditLog;
  /** The state of a tool's owner. */
  ownerState(owner: string): OwnerState;
  /** Why a tool is not registered: its plugin is disabled, not active, or it does not exist. */
  explainMissing(qualifiedName: string): CortexError;
  /** Reports a post-middleware failure (logged to that plugin). */
  onMiddlewareError(plugin: string, error: CortexError): void;
}

/** The runtime's single call path. */
export class CallPath {
  #parts: CallPathParts;

  /**
   * Creates it.
   * @param parts What the path is made of.
   */
  constructor(parts: CallPathParts) {
    this.#parts = parts;
  }

  /**
   * Calls a tool by its qualified name.
   *
   * @throws {CortexError} before the tool runs: `tool_not_found`, `plugin_disabled`,
   * `plugin_not_active`, `permission_denied`, `args_invalid`, `usage`. Failures once the
   * call has started come back as a result with `success: false` and an `errorCode`.
   */
  async call(
    qualifiedName: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<CallResult> {
    const started = performance.now();
    const startedAt = Date.now();

    // Caller label: set by the front door; a malformed one is a bug there, never trusted.
    if (!isCallerLabel(options.caller)) {
      throw new CortexError("usage", `"${options.caller}" is not a caller label`);
    }

    // Registry lookup.
    const tool = this.#parts.registry.get(qualifiedName);
    if (!tool) throw this.#parts.explainMissing(qualifiedName);

    // Policy: the owner must be active and still hold what the tool needs.
    const owner = this.#parts.ownerState(tool.owner);
    if (!owner.active) {
      throw owner.reason ??
        new CortexError("plugin_not_active", `plugin ${tool.owner} is not active`);
    }
    for (const capability of tool.capabilities) {
      if (!owner.capabilities.has(capability)) {
        throw new CortexError(
          "permission_denied",
          `tool ${qualifiedName} needs "${capability}", which plugin ${tool.owner} is not granted`,
        );
      }
    }

    // Arguments.
    if (typeof args !== "object" || args === null || Array.isArray(args)) {
      throw new CortexError("args_invalid", `arguments for ${qualifiedName} must be a JSON object`);
    }
    const problems = tool.validate(args);
    if (problems.length) {
      throw new CortexError(
        "args_invalid",
        `invalid arguments for ${qualifiedName}: ${problems.join("; ")}`,
      );
    }

    // Pre-middleware (fail closed).
    const middleware = this.#parts.middleware;
    let finalArgs = args;
    if (!middleware.isEmpty) {
      const pre = await middleware.runPre(this.#middlewareCall(tool, options.caller), args);
      if (!pre.allowed) {
        const result = this.#failure(qualifiedName, pre.code, pre.reason, started);
        this.#finish(tool, result, options.caller, startedAt);
        return result;
      }
      finalArgs = pre.args;
      const again = tool.validate(finalArgs);
      if (again.length) {
        const result = this.#failure(
          qualifiedName,
          "middleware_failed",
          `pre-middleware rewrote the arguments into an invalid form: ${again.join("; ")}`,
          started,
        );
        this.#finish(tool, result, options.caller, startedAt);
        return result;
      }
    }

    this.#emit("tool:pre-execute", { toolName: qualifiedName, args: finalArgs });

    // The loader's boundary, with a deadline.
    const timeoutMs = Math.min(options.timeoutMs ?? owner.timeoutMs, owner.timeoutMs);
    let result: CallResult;
    try {
      const raw = await withDeadline(
        (signal) => tool.invoke(finalArgs, this.#context(options, signal)),
        timeoutMs,
        {
          code: "call_timeout",
          message: `${qualifiedName} did not answer within ${timeoutMs} ms`,
          signal: options.signal,
        },
      );
      result = this.#normalize(qualifiedName, raw, started);
    } catch (error) {
      const e = toCortexError(error, "call_failed");
      result = this.#failure(qualifiedName, e.code, e.message, started);
    }

    // Post-middleware.
    if (!middleware.isEmpty) {
      result = await middleware.runPost(
        this.#middlewareCall(tool, options.caller),
        result,
        this.#parts.onMiddlewareError,
      );
    }

    this.#finish(tool, result, options.caller, startedAt);
    return result;
  }

  #middlewareCall(tool: ToolRecord, caller: CallerLabel) {
    return { toolName: tool.name, qualifiedName: tool.qualifiedName, plugin: tool.owner, caller };
  }

  #context(options: CallOptions, signal: AbortSignal): ToolCallContext {
    return {
      caller: options.caller,
      sessionId: options.sessionId ?? "",
      agentId: options.agentId ?? "",
      workingDir: options.workingDir ?? "",
      workspaceDir: options.workspaceDir ?? "",
      signal,
    };
  }

  #normalize(toolName: string, raw: unknown, started: number): CallResult {
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      return this.#failure(
        toolName,
        "call_failed",
        "the tool returned something that is not a ToolCallResult",
        started,
      );
    }
    const r = raw as Record<string, unknown>;
    if (typeof r.success !== "boolean" || (r.output !== undefined && typeof r.output !== "string")) {
      return this.#failure(
        toolName,
        "call_failed",
        "the tool returned a malformed ToolCallResult (success must be boolean, output a string)",
        started,
      );
    }
    const result: CallResult = {
      toolName,
      success: r.success,
      output: (r.output as string | undefined) ?? "",
      durationMs: performance.now() - started,
    };
    if (!r.success) {
      result.error = typeof r.error === "string" && r.error !== "" ? r.error : "the tool reported failure";
      result.errorCode = "tool_failed";
    }
    return result;
  }

  #failure(toolName: string, code: string, message: string, started: number): CallResult {
    return {
      toolName,
      success: false,
      output: "",
      error: message,
      errorCode: code,
      durationMs: performance.now() - started,
    };
  }

  #finish(tool: ToolRecord, result: CallResult, caller: CallerLabel, startedAt: number): void {
    this.#emit("tool:post-execute", { toolName: result.toolName, result });
    this.#parts.audit.record({
      at: startedAt,
      caller,
      plugin: tool.owner,
      tool: tool.qualifiedName,
      success: result.success,
      errorCode: result.errorCode,
      durationMs: result.durationMs,
    });
  }

  #emit(type: string, payload: unknown): void {
    if (this.#parts.events.hasListeners(type)) this.#parts.events.emit(type, payload);
  }
}
