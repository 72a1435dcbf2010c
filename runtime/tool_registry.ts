/**
 * The tool registry: every tool of every loaded plugin, namespaced by its
 * owner (`<plugin>.<tool>`), so two plugins can both have `search` and no
 * plugin can replace or remove another owner's tool.
 *
 * @module
 */
import type { ToolCallResult } from "../plugin_api/types.ts";
import { CortexError } from "./errors.ts";
import type { ArgsValidator } from "./tool_schema.ts";
import type { CallerLabel } from "./policy.ts";

/** What the call path hands a tool's boundary for one call. */
export interface ToolCallContext {
  /** Who called. */
  caller: CallerLabel;
  /** Agent session, when an agent calls. */
  sessionId: string;
  /** Agent id, when an agent calls. */
  agentId: string;
  /** Working directory of the caller. */
  workingDir: string;
  /** Workspace root of the caller. */
  workspaceDir: string;
  /** Aborted at the deadline or when the caller gives up. */
  signal: AbortSignal;
}

/** Runs one tool call at the loader's boundary; returns the raw result. */
export type ToolInvoker = (args: Record<string, unknown>, ctx: ToolCallContext) => Promise<unknown>;

/** A registered tool. */
export interface ToolRecord {
  /** `<owner>.<name>`. */
  qualifiedName: string;
  /** The owning plugin. */
  owner: string;
  /** The tool's name within its plugin. */
  name: string;
  /** What the tool does. */
  description: string;
  /** JSON Schema of the arguments. */
  inputSchema: Record<string, unknown>;
  /** Checks arguments before the call. */
  validate: ArgsValidator;
  /** Capabilities the tool needs. */
  capabilities: string[];
  /** Extra hints (MCP annotations such as readOnlyHint). */
  annotations?: Record<string, unknown>;
  /** Runs the tool. */
  invoke: ToolInvoker;
}

/** The qualified name of a tool. */
export function qualifyToolName(owner: string, name: string): string {
  return `${owner}.${name}`;
}

/** What a tool hands back: the documented result, minus what the runtime sets. */
export type RawToolResult = Partial<ToolCallResult> & Record<string, unknown>;

/** Holds every registered tool and tells listeners when the set changes. */
export class ToolRegistry {
  #tools = new Map<string, ToolRecord>();
  #listeners = new Set<() => void>();

  /** Registers a tool; refuses a name its owner already has. */
  register(record: ToolRecord): void {
    if (record.qualifiedName !== qualifyToolName(record.owner, record.name)) {
      throw new CortexError("tool_conflict", `tool ${record.qualifiedName} is not namespaced by its owner`);
    }
    if (this.#tools.has(record.qualifiedName)) {
      throw new CortexError(
        "tool_conflict",
        `plugin ${record.owner} already has a tool named "${record.name}"`,
      );
    }
    this.#tools.set(record.qualifiedName, record);
    this.#changed();
  }

  /** Unregisters `name` of `owner`; an owner can only ever name its own tools. */
  unregister(owner: string, name: string): boolean {
    const removed = this.#tools.delete(qualifyToolName(owner, name));
    if (removed) this.#changed();
    return removed;
  }

  /** Unregisters every tool of `owner`. */
  unregisterOwner(owner: string): void {
    let any = false;
    for (const [key, record] of this.#tools) {
      if (record.owner === owner) {
        this.#tools.delete(key);
        any = true;
      }
    }
    if (any) this.#changed();
  }

  /** The tool with this qualified name. */
  get(qualifiedName: string): ToolRecord | undefined {
    return this.#tools.get(qualifiedName);
  }

  /** Every tool, by qualified name; or only `owner`'s. */
  list(owner?: string): ToolRecord[] {
    const all = [...this.#tools.values()].filter((t) => owner === undefined || t.owner === owner);
    return all.sort((a, b) => (a.qualifiedName < b.qualifiedName ? -1 : 1));
  }

  /** Subscribes to changes of the tool set; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener();
      } catch {
        // A listener's failure is its own.
      }
    }
  }
}
