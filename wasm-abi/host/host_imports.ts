import { CortexError } from "../../runtime/errors.ts";
import { ABI_VERSION, CORTEX_ERR, CORTEX_ERR_BUFFER_TOO_SMALL, CORTEX_OK } from "./abi.ts";
import { type ChannelAnswer, requestAndWait } from "./channel.ts";
import type { HostHeap } from "./host_heap.ts";
import { LinearMemory } from "./linear_memory.ts";
import type { HostRequest, WorkerLimits } from "./messages.ts";

/** What the host imports need from the Worker that runs the plugin. */
export interface ImportContext {
  /** The plugin's memory; throws until it is known. */
  memory(): LinearMemory;
  /** The host heap of the current instance. */
  heap(): HostHeap;
  /** The answer channel shared with the main thread. */
  channel: SharedArrayBuffer;
  /** Size limits. */
  limits: WorkerLimits;
  /** Posts a message to the main thread. */
  post(message: HostRequest | { type: "log"; message: string }): void;
}

const MAX_KEY_BYTES = 1024;
const MAX_RANDOM_CHUNK = 65536;

/**
 * Writes `data` to the plugin's buffer whose capacity is the u32 at
 * `outLenPtr`, then stores the full length there. Returns false when the
 * buffer was too small (only its capacity was written).
 */
export function writeOut(mem: LinearMemory, data: Uint8Array, outPtr: number, outLenPtr: number): boolean {
  const capacity = mem.getU32(outLenPtr);
  const fits = data.length <= capacity;
  mem.write(outPtr, fits ? data : data.subarray(0, capacity));
  mem.setU32(outLenPtr, data.length);
  return fits;
}

function deliver(mem: LinearMemory, reply: ChannelAnswer, outPtr: number, outLenPtr: number): number {
  if (reply.code !== CORTEX_OK) return reply.code;
  return writeOut(mem, reply.payload, outPtr, outLenPtr) ? CORTEX_OK : CORTEX_ERR_BUFFER_TOO_SMALL;
}

function readKey(mem: LinearMemory, ptr: number, len: number): string | undefined {
  return len >>> 0 > MAX_KEY_BYTES ? undefined : mem.readString(ptr, len);
}

/**
 * Builds the `env` functions of ABI v1 for one plugin instance. Calls that
 * need the main thread (state, config, HTTP) block only this Worker.
 */
export function createHostImports(
  ctx: ImportContext,
): Record<string, (...args: number[]) => number | bigint | void> {
  const ask = (request: HostRequest) => requestAndWait(ctx.channel, () => ctx.post(request));
  return {
    host_alloc: (size) => ctx.heap().alloc(size >>> 0),
    host_free: (ptr) => void ctx.heap().free(ptr >>> 0),
    host_log: (ptr, len) => {
      const message = ctx.memory().readString(ptr, Math.min(len >>> 0, ctx.limits.maxLogBytes));
      ctx.post({ type: "log", message });
    },
    host_get_config: (keyPtr, keyLen, outPtr, outLenPtr) => {
      const mem = ctx.memory();
      const key = readKey(mem, keyPtr, keyLen);
      if (key === undefined) return CORTEX_ERR;
      return deliver(mem, ask({ type: "host", op: "get_config", key }), outPtr, outLenPtr);
    },
    host_get_state: (keyPtr, keyLen, outPtr, outLenPtr) => {
      const mem = ctx.memory();
      const key = readKey(mem, keyPtr, keyLen);
      if (key === undefined) return CORTEX_ERR;
      return deliver(mem, ask({ type: "host", op: "get_state", key }), outPtr, outLenPtr);
    },
    host_set_state: (keyPtr, keyLen, valuePtr, valueLen) => {
      const mem = ctx.memory();
      const key = readKey(mem, keyPtr, keyLen);
      if (key === undefined) {
        throw new CortexError("state_failed", `a state key is longer than ${MAX_KEY_BYTES} bytes`);
      }
      if (valueLen >>> 0 > ctx.limits.maxTransferBytes) {
        throw new CortexError(
          "state_failed",
          `a state value is longer than ${ctx.limits.maxTransferBytes} bytes`,
        );
      }
      const value = mem.readString(valuePtr, valueLen);
      const reply = ask({ type: "host", op: "set_state", key, value });
      if (reply.code !== CORTEX_OK) {
        throw new CortexError("state_failed", "the host could not store the plugin's state");
      }
    },
    host_http_request: (
      methodPtr,
      methodLen,
      urlPtr,
      urlLen,
      bodyPtr,
      bodyLen,
      headersPtr,
      headersLen,
      outStatusPtr,
      outBodyPtr,
      outBodyLenPtr,
    ) => {
      const mem = ctx.memory();
      const tooLong = methodLen >>> 0 > 16 || urlLen >>> 0 > 8192 ||
        bodyLen >>> 0 > ctx.limits.maxTransferBytes ||
        headersLen >>> 0 > ctx.limits.maxTransferBytes;
      const reply: ChannelAnswer = tooLong
        ? { code: CORTEX_ERR, status: 0, payload: LinearMemory.encode("host: request too large") }
        : ask({
          type: "host",
          op: "http",
          method: methodLen ? mem.readString(methodPtr, methodLen) : "GET",
          url: mem.readString(urlPtr, urlLen),
          body: bodyLen ? mem.bytes(bodyPtr, bodyLen).slice() : null,
          headers: headersLen ? mem.readString(headersPtr, headersLen) : null,
        });
      mem.setU32(outStatusPtr, reply.status);
      const fits = writeOut(mem, reply.payload, outBodyPtr, outBodyLenPtr);
      if (reply.code !== CORTEX_OK) return reply.code;
      return fits ? CORTEX_OK : CORTEX_ERR_BUFFER_TOO_SMALL;
    },
    host_get_abi_version: () => ABI_VERSION,
    host_get_time_ms: () => BigInt(Date.now()),
    host_random: (ptr, len) => {
      const target = ctx.memory().bytes(ptr, len);
      for (let at = 0; at < target.length; at += MAX_RANDOM_CHUNK) {
        crypto.getRandomValues(target.subarray(at, at + MAX_RANDOM_CHUNK));
      }
    },
  };
}
