/**
 * What a cell reports to its supervisor. Internal to `loaders/worker/`.
 *
 * @module
 */
import type { REQUEST_OPS } from "./_protocol.ts";
import type { CellLink } from "./cell_link.ts";
import type { CellMessage } from "./messages.ts";
import type { Guilt } from "./sandbox_process.ts";

/** What the plugin exports, as its Worker reported it (tools not yet checked). */
export type ReadyReport = Extract<CellMessage, { t: "ready" }>;

/** The messages a cell sends that need no answer. */
export type CellNotice = Extract<CellMessage, { t: "log" | "register" | "unregister" | "subscribe" }>;

/** What the cell asks of its supervisor. */
export interface CellEvents {
  /** Serves a request (`state.*`, `config.*`). */
  request(op: (typeof REQUEST_OPS)[number], key: string | undefined, value: unknown): Promise<unknown>;
  /** A log line, a tool (un)registration or a subscription from the plugin. */
  notice(message: CellNotice): void;
  /** Notes a dropped or refused message in the plugin's log. */
  warn(text: string): void;
  /** The cell has ended. */
  ended(link: CellLink, reason: string, guilty: Guilt): void;
}
