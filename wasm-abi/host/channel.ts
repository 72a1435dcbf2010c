/**
 * The shared-memory answer channel between a plugin's Worker and the main
 * thread. A synchronous host import (state, config, HTTP) posts its request
 * as a message and blocks the Worker in `Atomics.wait`; the main thread does
 * the work, writes the answer here and wakes the Worker with `Atomics.notify`.
 * Only the plugin's own Worker ever blocks; one request is in flight at a time.
 *
 * Layout (little-endian Int32 words, then bytes):
 * `[0] state (0 waiting, 1 answered) [1] code [2] payload length [3] HTTP status [16..] payload`
 *
 * @module
 */

const STATE = 0;
const CODE = 1;
const LENGTH = 2;
const STATUS = 3;
const HEADER_BYTES = 16;

/** An answer read back by the Worker. */
export interface ChannelAnswer {
  /** An ABI return code (`CORTEX_OK`, `CORTEX_ERR`, ...). */
  code: number;
  /** The payload (a value, a response body or a short error text). */
  payload: Uint8Array;
  /** The HTTP status, for HTTP requests. */
  status: number;
}

/** Creates the channel buffer; it grows on demand up to `maxPayloadBytes`. */
export function createChannel(maxPayloadBytes: number): SharedArrayBuffer {
  return new SharedArrayBuffer(HEADER_BYTES + 4096, { maxByteLength: HEADER_BYTES + maxPayloadBytes });
}

/** The largest payload the channel can carry. */
export function channelCapacity(channel: SharedArrayBuffer): number {
  return channel.maxByteLength - HEADER_BYTES;
}

/**
 * Worker side: sends the request with `post`, then blocks until the main
 * thread answers.
 */
export function requestAndWait(channel: SharedArrayBuffer, post: () => void): ChannelAnswer {
  const words = new Int32Array(channel, 0, 4);
  Atomics.store(words, STATE, 0);
  post();
  while (Atomics.load(words, STATE) === 0) Atomics.wait(words, STATE, 0);
  const length = words[LENGTH];
  return {
    code: words[CODE],
    status: words[STATUS],
    payload: new Uint8Array(channel, HEADER_BYTES, length).slice(),
  };
}

/**
 * Main side: writes the answer and wakes the Worker. A payload larger than
 * the channel can carry is answered with `tooLargeCode` and no payload.
 */
export function answer(
  channel: SharedArrayBuffer,
  reply: { code: number; payload?: Uint8Array; status?: number },
  tooLargeCode: number,
): void {
  let { code, payload = new Uint8Array(0) } = reply;
  if (payload.length > channelCapacity(channel)) {
    code = tooLargeCode;
    payload = new TextEncoder().encode("host: value larger than the transfer limit");
  }
  if (HEADER_BYTES + payload.length > channel.byteLength) channel.grow(HEADER_BYTES + payload.length);
  new Uint8Array(channel, HEADER_BYTES, payload.length).set(payload);
  const words = new Int32Array(channel, 0, 4);
  words[CODE] = code;
  words[LENGTH] = payload.length;
  words[STATUS] = reply.status ?? 0;
  Atomics.store(words, STATE, 1);
  Atomics.notify(words, STATE);
}
