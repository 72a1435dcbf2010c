import { EventBus } from "../runtime/event_bus.ts";

/**
 * The process-wide event bus that plugins subscribe to. A {@link Runtime}
 * emits to it unless it was given a bus of its own. Inside a sandbox Worker
 * this module is a separate instance, fed by the host with only the events
 * the plugin may see.
 */
export const globalEventBus: EventBus = new EventBus();
