/**
 * The schemas every message from a sandbox is checked against in the host.
 * A sandbox process and the plugin inside it are untrusted: a control frame
 * or a cell message that does not match exactly (an unknown key included)
 * is dropped and logged, never acted on.
 *
 * @module
 */
import { z } from "zod";
import { HOOK_NAMES, LOG_LEVELS, REQUEST_OPS } from "./_protocol.ts";

const id = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const text = (max: number) => z.string().max(max);

/** A frame from a sandbox process's main thread, on its control connection. */
export const processFrameSchema = z.discriminatedUnion("t", [
  z.strictObject({ t: z.literal("hello"), nonce: text(128), pid: id }),
  z.strictObject({ t: z.literal("pong"), id }),
  z.strictObject({ t: z.literal("error"), cell: id, message: text(65_536) }),
  z.strictObject({ t: z.literal("flood"), cell: id }),
]);

/** A frame from a sandbox process's main thread. */
export type ProcessFrame = z.infer<typeof processFrameSchema>;

/** A message from one plugin's Worker. */
export const cellMessageSchema = z.discriminatedUnion("t", [
  z.strictObject({
    t: z.literal("ready"),
    tools: z.array(z.unknown()).max(1000),
    hooks: z.array(z.enum(HOOK_NAMES)).max(HOOK_NAMES.length),
    handlers: z.strictObject({
      configChange: z.boolean(),
      event: z.boolean(),
      pre: z.boolean(),
      post: z.boolean(),
    }),
  }),
  z.strictObject({
    t: z.literal("load-failed"),
    code: z.enum(["hook_failed", "tool_undeclared"]),
    message: text(65_536),
  }),
  z.strictObject({
    t: z.literal("reply"),
    id,
    ok: z.boolean(),
    value: z.unknown(),
    error: text(65_536).optional(),
  }),
  z.strictObject({ t: z.literal("pong"), id }),
  z.strictObject({
    t: z.literal("req"),
    id,
    op: z.enum(REQUEST_OPS),
    key: text(1024).optional(),
    value: z.unknown().optional(),
  }),
  z.strictObject({ t: z.literal("log"), level: z.enum(LOG_LEVELS), msg: text(65_536) }),
  z.strictObject({ t: z.literal("register"), definition: z.unknown() }),
  z.strictObject({ t: z.literal("unregister"), name: text(64) }),
  z.strictObject({ t: z.literal("subscribe"), type: text(128) }),
  z.strictObject({ t: z.literal("exit"), code: z.number() }),
]);

/** A message from one plugin's Worker. */
export type CellMessage = z.infer<typeof cellMessageSchema>;

/**
 * Parses one line from a sandbox. `__proto__` keys are removed on the way in
 * (JSON.parse makes them own properties, which a careless copy elsewhere
 * could turn into a prototype change).
 */
export function parseLine(line: string): unknown {
  if (!line.includes('"__proto__"')) return JSON.parse(line);
  return JSON.parse(line, (key, value) => (key === "__proto__" ? undefined : value));
}

/** The first problem of a failed parse, for the log. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "malformed";
  const path = issue.path.length ? issue.path.join(".") : "message";
  return `${path}: ${issue.message}`;
}
