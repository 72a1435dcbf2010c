/**
 * The in-process module registry: registers modules by id and drives the
 * whole set through the lifecycle in deterministic id order.
 *
 * @module
 */
import { CortexError } from "../runtime/errors.ts";
import { ModuleLifecycleError } from "./errors.ts";
import type { CortexModule, ModuleContext, ModuleOperation, ModuleState } from "./lifecycle.ts";
import { nextState, requiredState } from "./lifecycle.ts";
import { type ModuleMetadata, validateMetadata } from "./metadata.ts";
import { isValidName } from "./name.ts";

interface Entry {
  readonly module: CortexModule;
  readonly metadata: ModuleMetadata;
  state: ModuleState;
}

/**
 * Holds modules and their states. An illegal transition throws `invalid_state`
 * before any module runs; a module's own failure throws a
 * {@link ModuleLifecycleError} and leaves that module in its previous state
 * (modules earlier in id order keep the state they reached, as in the reference crate).
 *
 * @example
 * ```ts
 * import { ModuleRegistry } from "./registry.ts";
 * const registry = new ModuleRegistry();
 * registry.register({
 *   metadata: { id: "tool.noop", version: "1.0.0", kind: "tool", capabilities: [] },
 *   async init() {},
 *   async start() {},
 *   async stop() {},
 *   async shutdown() {},
 * });
 * await registry.initAll({ instance: "agent-1" });
 * await registry.startAll();
 * registry.state("tool.noop"); // "running"
 * ```
 */
export class ModuleRegistry {
  #entries = new Map<string, Entry>();
  #busy = false;

  /**
   * Adds a module in state `registered`. Throws `invalid_metadata` or
   * `duplicate_module`; the metadata is copied and frozen, so later changes
   * to the module's object do not change its identity.
   */
  register(module: CortexModule): void {
    this.#assertIdle();
    const metadata = validateMetadata(module.metadata);
    if (this.#entries.has(metadata.id)) {
      throw new CortexError(
        "duplicate_module",
        `module ${metadata.id} is already registered`,
      );
    }
    this.#entries.set(metadata.id, { module, metadata, state: "registered" });
  }

  /** The registered ids sorted by byte order (ids are ASCII, so code-unit order is byte order). */
  ids(): string[] {
    return [...this.#entries.keys()].sort((
      a,
      b,
    ) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** The state of module `id`, or `undefined` when it is not registered. */
  state(id: string): ModuleState | undefined {
    return this.#entries.get(id)?.state;
  }

  /** The frozen metadata of module `id`, or `undefined` when it is not registered. */
  metadata(id: string): ModuleMetadata | undefined {
    return this.#entries.get(id)?.metadata;
  }

  /** Initializes every module with a context holding only `instance`. */
  initAll(ctx: ModuleContext): Promise<void> {
    if (!isValidName(ctx.instance)) {
      return Promise.reject(
        new CortexError(
          "invalid_instance",
          "the instance identifier breaks the name rule",
        ),
      );
    }
    // A fresh frozen object, so a caller's extra fields never reach a module.
    const context: ModuleContext = Object.freeze({ instance: ctx.instance });
    return this.#runAll("init", (m) => m.init(context));
  }

  /** Starts every initialized module. */
  startAll(): Promise<void> {
    return this.#runAll("start", (m) => m.start());
  }

  /** Stops every running module. */
  stopAll(): Promise<void> {
    return this.#runAll("stop", (m) => m.stop());
  }

  /** Shuts down every stopped module. */
  shutdownAll(): Promise<void> {
    return this.#runAll("shutdown", (m) => m.shutdown());
  }

  async #runAll(
    operation: ModuleOperation,
    run: (module: CortexModule) => Promise<void>,
  ): Promise<void> {
    this.#assertIdle();
    const order = this.ids().map((id) => this.#entries.get(id)!);
    const wrong = order.find((entry) => nextState(entry.state, operation) === undefined);
    if (wrong) {
      throw new CortexError(
        "invalid_state",
        `cannot ${operation} module ${wrong.metadata.id}: it is ${wrong.state}, ` +
          `${operation} needs ${requiredState(operation)}`,
      );
    }
    this.#busy = true;
    try {
      for (const entry of order) {
        try {
          await run(entry.module);
        } catch (cause) {
          throw new ModuleLifecycleError(entry.metadata.id, operation, cause);
        }
        entry.state = nextState(entry.state, operation)!;
      }
    } finally {
      this.#busy = false;
    }
  }

  #assertIdle(): void {
    if (this.#busy) {
      throw new CortexError(
        "registry_busy",
        "another registry operation is still running",
      );
    }
  }
}
