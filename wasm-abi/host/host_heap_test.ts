import { deepEqual, equal, ok } from "node:assert/strict";
import { HostHeap } from "./host_heap.ts";

Deno.test("host heap hands out aligned, disjoint blocks and refuses what does not fit", () => {
  const heap = new HostHeap(0x1000, 0x1100);
  const a = heap.alloc(3);
  const b = heap.alloc(8);
  deepEqual([a, b], [0x1000, 0x1008]);
  equal(heap.alloc(0x100), 0);
  equal(heap.alloc(0), 0);
  equal(heap.freeBytes, 0x100 - 16);
});

Deno.test("host heap merges freed neighbours so a large block fits again", () => {
  const heap = new HostHeap(0x1000, 0x1100);
  const blocks = [heap.alloc(64), heap.alloc(64), heap.alloc(64), heap.alloc(64)];
  equal(heap.alloc(8), 0);
  for (const ptr of [blocks[2], blocks[0], blocks[1], blocks[3]]) ok(heap.free(ptr));
  equal(heap.alloc(0x100), 0x1000);
  equal(heap.free(0x1234), false);
});
