/**
 * Writes one JSON-RPC line without waiting for the pipe, like Node's
 * `stream.write()` that the SDK's own transports use: awaiting every write
 * adds a full write round trip to each message. Waits only once 16 writes
 * are queued, so a peer that stops reading still pushes back.
 * Internal to `mcp-bridge/`.
 *
 * @module
 */

const MAX_QUEUED = 16;

/** Queues `bytes` on `writer`; a failed unawaited write is reported to `onError`. */
export function queueWrite(
  writer: WritableStreamDefaultWriter<Uint8Array>,
  bytes: Uint8Array,
  onError: (error: Error) => void,
): Promise<void> {
  const written = writer.write(bytes);
  if ((writer.desiredSize ?? 0) > -MAX_QUEUED) {
    written.catch((error) => onError(error instanceof Error ? error : new Error(String(error))));
    return Promise.resolve();
  }
  return written;
}
