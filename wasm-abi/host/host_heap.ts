import { HOST_ALIGN, HOST_HEAP_END, HOST_HEAP_START } from "./abi.ts";

interface Block {
  start: number;
  size: number;
}

/**
 * The allocator behind `host_alloc`/`host_free` and the host's per-call
 * buffers: first fit over the host heap, blocks aligned to 8 bytes, free
 * neighbours merged. Its bookkeeping lives here in the Worker, not in the
 * plugin's memory, so a plugin cannot corrupt it by writing out of bounds.
 *
 * @example
 * ```ts
 * const heap = new HostHeap();
 * const ptr = heap.alloc(100); // 0 when the heap is full
 * heap.free(ptr);
 * ```
 */
export class HostHeap {
  #free: Block[];
  #used = new Map<number, number>();

  /** A heap over `[start, end)`, the ABI's host heap by default. */
  constructor(start = HOST_HEAP_START, end = HOST_HEAP_END) {
    this.#free = [{ start, size: end - start }];
  }

  /** Returns an 8-aligned block of at least `size` bytes, or 0 when none is free. */
  alloc(size: number): number {
    if (!(size > 0)) return 0;
    const rounded = Math.ceil(size / HOST_ALIGN) * HOST_ALIGN;
    const index = this.#free.findIndex((b) => b.size >= rounded);
    if (index < 0) return 0;
    const block = this.#free[index];
    const ptr = block.start;
    if (block.size === rounded) this.#free.splice(index, 1);
    else {
      block.start += rounded;
      block.size -= rounded;
    }
    this.#used.set(ptr, rounded);
    return ptr;
  }

  /** Frees a block; returns false for a pointer this heap did not hand out. */
  free(ptr: number): boolean {
    const size = this.#used.get(ptr);
    if (size === undefined) return false;
    this.#used.delete(ptr);
    let index = this.#free.findIndex((b) => b.start > ptr);
    if (index < 0) index = this.#free.length;
    this.#free.splice(index, 0, { start: ptr, size });
    const next = this.#free[index + 1];
    if (next && ptr + size === next.start) {
      this.#free[index].size += next.size;
      this.#free.splice(index + 1, 1);
    }
    const prev = this.#free[index - 1];
    if (prev && prev.start + prev.size === ptr) {
      prev.size += this.#free[index].size;
      this.#free.splice(index, 1);
    }
    return true;
  }

  /** Bytes currently free (not necessarily in one block). */
  get freeBytes(): number {
    return this.#free.reduce((sum, b) => sum + b.size, 0);
  }
}
