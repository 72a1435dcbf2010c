/**
 * The module lifecycle: the contract a module implements, the context it is
 * given, and the one transition table both the registry and the socket host obey.
 *
 * @module
 */
import type { ModuleMetadata } from "./metadata.ts";

/** Lifecycle states, strictly in this order: registered, initialized, running, stopped, shutdown. */
export type ModuleState =
  | "registered"
  | "initialized"
  | "running"
  | "stopped"
  | "shutdown";

/** The operations that move a module between states, as named on the wire. */
export const MODULE_OPERATIONS = ["init", "start", "stop", "shutdown"] as const;

/** One lifecycle operation: `init`, `start`, `stop` or `shutdown`. */
export type ModuleOperation = (typeof MODULE_OPERATIONS)[number];

/**
 * What the host gives a module: its runtime instance identifier and nothing else.
 * No file handles, no secrets, no callbacks into the host.
 */
export interface ModuleContext {
  /** The runtime instance identifier, following the name rule. */
  readonly instance: string;
}

/**
 * An in-process module. The registry calls each method once, in order.
 *
 * @example
 * ```ts
 * import type { CortexModule } from "./lifecycle.ts";
 * const mod: CortexModule = {
 *   metadata: { id: "tool.noop", version: "1.0.0", kind: "tool", capabilities: [] },
 *   async init(_ctx) {},
 *   async start() {},
 *   async stop() {},
 *   async shutdown() {},
 * };
 * ```
 */
export interface CortexModule {
  /** The module's identity and declared capabilities. */
  readonly metadata: ModuleMetadata;
  /** Prepares the module for one runtime instance. */
  init(ctx: ModuleContext): Promise<void>;
  /** Starts accepting work. */
  start(): Promise<void>;
  /** Stops accepting new work while keeping durable state. */
  stop(): Promise<void>;
  /** Releases everything the module holds. */
  shutdown(): Promise<void>;
}

const TRANSITIONS: Readonly<
  Record<ModuleOperation, readonly [ModuleState, ModuleState]>
> = {
  init: ["registered", "initialized"],
  start: ["initialized", "running"],
  stop: ["running", "stopped"],
  shutdown: ["stopped", "shutdown"],
};

/**
 * The state `operation` leads to from `state`, or `undefined` when the move is
 * illegal (skipping a step, going back, or restarting a shut-down module).
 *
 * @example
 * ```ts
 * import { nextState } from "./lifecycle.ts";
 * nextState("registered", "init"); // "initialized"
 * nextState("registered", "start"); // undefined
 * ```
 */
export function nextState(
  state: ModuleState,
  operation: ModuleOperation,
): ModuleState | undefined {
  const [from, to] = TRANSITIONS[operation];
  return state === from ? to : undefined;
}

/**
 * The state a module must be in for `operation` to be legal.
 *
 * @example
 * ```ts
 * import { requiredState } from "./lifecycle.ts";
 * requiredState("stop"); // "running"
 * ```
 */
export function requiredState(operation: ModuleOperation): ModuleState {
  return TRANSITIONS[operation][0];
}
