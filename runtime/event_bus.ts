/**
 * The event bus. Handlers are isolated from the emitter and from each other:
 * `emit` never waits for a handler, a handler that throws is reported to the
 * bus's error sink, and a handler whose promise never settles holds nothing.
 *
 * @module
 */

/** A handler for one event type. */
export type EventHandler<P = unknown> = (payload: P) => unknown;

/** A handler that sees every event. */
export type AnyEventHandler = (type: string, payload: unknown) => unknown;

/** Options for {@link EventBus}. */
export interface EventBusOptions {
  /** Called when a handler throws or rejects; defaults to doing nothing. */
  onHandlerError?: (type: string, error: unknown) => void;
}

/**
 * A typed publish/subscribe bus.
 *
 * @example
 * ```ts
 * import { EventBus } from "./event_bus.ts";
 * const bus = new EventBus();
 * const off = bus.on("session:start", (e) => console.log(e));
 * bus.emit("session:start", { sessionId: "s1" });
 * off();
 * ```
 */
export class EventBus {
  #handlers = new Map<string, Set<EventHandler>>();
  #anyHandlers = new Set<AnyEventHandler>();
  #onHandlerError: (type: string, error: unknown) => void;

  /**
   * Creates it.
   * @param options Where handler failures are reported.
   */
  constructor(options: EventBusOptions = {}) {
    this.#onHandlerError = options.onHandlerError ?? (() => {});
  }

  /** Subscribes to one event type; returns the function that unsubscribes. */
  on<P = unknown>(type: string, handler: EventHandler<P>): () => void {
    let set = this.#handlers.get(type);
    if (!set) {
      set = new Set();
      this.#handlers.set(type, set);
    }
    set.add(handler as EventHandler);
    return () => this.off(type, handler);
  }

  /** Unsubscribes a handler added with {@link EventBus.on}. */
  off<P = unknown>(type: string, handler: EventHandler<P>): void {
    this.#handlers.get(type)?.delete(handler as EventHandler);
  }

  /** Subscribes to every event; returns the function that unsubscribes. */
  onAny(handler: AnyEventHandler): () => void {
    this.#anyHandlers.add(handler);
    return () => this.#anyHandlers.delete(handler);
  }

  /** Whether anything listens to `type`. */
  hasListeners(type: string): boolean {
    return this.#anyHandlers.size > 0 || (this.#handlers.get(type)?.size ?? 0) > 0;
  }

  /** Delivers `payload` to every handler of `type`, without waiting for any of them. */
  emit(type: string, payload: unknown): void {
    const set = this.#handlers.get(type);
    if (set) {
      for (const handler of [...set]) this.#deliver(type, () => handler(payload));
    }
    for (const handler of [...this.#anyHandlers]) {
      this.#deliver(type, () => handler(type, payload));
    }
  }

  /** Removes every handler. */
  clear(): void {
    this.#handlers.clear();
    this.#anyHandlers.clear();
  }

  #deliver(type: string, run: () => unknown): void {
    try {
      const result = run();
      if (result instanceof Promise) {
        result.catch((error) => this.#onHandlerError(type, error));
      }
    } catch (error) {
      this.#onHandlerError(type, error);
    }
  }
}
