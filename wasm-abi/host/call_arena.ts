import { CortexError } from "../../runtime/errors.ts";
import type { HostHeap } from "./host_heap.ts";
import { LinearMemory } from "./linear_memory.ts";

/** Text the host placed in the plugin's memory. */
export interface Placed {
  /** Where it starts. */
  ptr: number;
  /** Its length in bytes. */
  len: number;
}

const NAME_BYTES = 256;
const ARGS_BYTES = 16384 - NAME_BYTES;

/**
 * The host's buffers for export calls: the tool name, the arguments and the
 * output. One host-heap block, reserved when the instance starts, holds the
 * usual sizes, so a typical call touches no allocator; anything larger gets
 * its own host-heap block, freed after the call. Every buffer starts on an
 * 8-byte boundary and none overlaps another or the length slot (which lives
 * in the scratch area).
 */
export class CallArena {
  readonly #heap: HostHeap;
  readonly #memory: LinearMemory;
  readonly #name: number;
  readonly #args: number;
  readonly #out: number;
  readonly #outBytes: number;

  /** Reserves the block; throws `host_heap_full` if the heap cannot hold it. */
  constructor(heap: HostHeap, memory: LinearMemory, outBytes: number) {
    const base = heap.alloc(NAME_BYTES + ARGS_BYTES + outBytes);
    if (!base) throw new CortexError("host_heap_full", "the host heap cannot hold the call buffers");
    this.#heap = heap;
    this.#memory = memory;
    this.#name = base;
    this.#args = base + NAME_BYTES;
    this.#out = base + NAME_BYTES + ARGS_BYTES;
    this.#outBytes = outBytes;
  }

  /** Places the tool name (at most `limit` bytes). */
  name(text: string, limit: number): Placed {
    return this.#place(text, this.#name, NAME_BYTES, limit, "tool name");
  }

  /** Places the arguments JSON (at most `limit` bytes). */
  args(text: string, limit: number): Placed {
    return this.#place(text, this.#args, ARGS_BYTES, limit, "arguments");
  }

  /** An output buffer of `capacity` bytes. */
  output(capacity: number): number {
    return capacity <= this.#outBytes ? this.#out : this.#alloc(capacity);
  }

  /** Gives back a buffer from this arena; reserved ones stay reserved. */
  release(ptr: number): void {
    if (ptr !== this.#name && ptr !== this.#args && ptr !== this.#out) this.#heap.free(ptr);
  }

  #place(text: string, reserved: number, reservedBytes: number, limit: number, what: string): Placed {
    // Text that may fit (a UTF-16 unit takes at least one byte) is encoded
    // straight into the reserved buffer; only what does not fit is copied.
    if (text.length <= reservedBytes) {
      const len = this.#memory.encodeInto(text, reserved, reservedBytes);
      if (len > limit) throw tooLarge(what, len, limit);
      if (len >= 0) return { ptr: reserved, len };
    }
    const bytes = LinearMemory.encode(text);
    if (bytes.length > limit) throw tooLarge(what, bytes.length, limit);
    const ptr = this.#alloc(bytes.length);
    this.#memory.write(ptr, bytes);
    return { ptr, len: bytes.length };
  }

  #alloc(size: number): number {
    const ptr = this.#heap.alloc(size);
    if (!ptr) throw new CortexError("host_heap_full", `the host heap has no room for ${size} bytes`);
    return ptr;
  }
}

function tooLarge(what: string, len: number, limit: number): CortexError {
  return new CortexError("args_too_large", `the ${what} is ${len} bytes; the limit is ${limit}`);
}
