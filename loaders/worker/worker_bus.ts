/**
 * Inside a plugin's Worker: `globalEventBus` from `cortex/plugins` is this
 * Worker's own instance. Subscribing to it asks the host to forward that
 * event type (refused without `events:listener`); the host then feeds it.
 * What the plugin emits stays in its Worker: a sandboxed plugin cannot forge
 * the runtime's events.
 *
 * @module
 */
import type { EventBus, EventHandler } from "../../runtime/event_bus.ts";
import { EVENT_TYPES } from "../../plugin_api/types.ts";

/** The bridge's options. */
export interface BusBridgeOptions {
  /** Whether the plugin holds `events:listener`. */
  allowed: boolean;
  /** Asks the host to forward `type`. */
  subscribe(type: string): void;
}

/** Feeds events the host forwards into the Worker's bus. */
export interface BusBridge {
  /** Delivers one forwarded event to the Worker's handlers. */
  deliver(type: string, payload: unknown): void;
}

/** Wraps `bus.on` and `bus.onAny` so subscriptions reach the host. */
export function bridgeBus(bus: EventBus, options: BusBridgeOptions): BusBridge {
  const on = bus.on.bind(bus);
  const onAny = bus.onAny.bind(bus);
  const emit = bus.emit.bind(bus);
  const asked = new Set<string>();
  const ask = (type: string) => {
    if (!options.allowed) {
      throw new Error(`PermissionDenied: subscribing to "${type}" needs the "events:listener" capability`);
    }
    if (asked.has(type)) return;
    asked.add(type);
    options.subscribe(type);
  };
  bus.on = (<P>(type: string, handler: EventHandler<P>) => {
    ask(String(type));
    return on(type, handler);
  }) as typeof bus.on;
  bus.onAny = ((handler) => {
    for (const type of EVENT_TYPES) ask(type);
    return onAny(handler);
  }) as typeof bus.onAny;
  return { deliver: (type, payload) => emit(type, payload) };
}
