import { CortexError } from "../../runtime/errors.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Bounds-checked access to a plugin's linear memory from the Worker.
 * Pointers arrive from WebAssembly as signed i32 and are read as unsigned.
 * Length slots are read with a DataView, so a plugin may put them at any
 * address, aligned or not. Any access outside the memory throws a
 * {@link CortexError} with code `out_of_bounds`, which fails the tool call.
 *
 * @example
 * ```ts
 * const mem = new LinearMemory(new WebAssembly.Memory({ initial: 17 }));
 * mem.write(0x20000, new TextEncoder().encode("hi"));
 * mem.readString(0x20000, 2); // "hi"
 * ```
 */
export class LinearMemory {
  #bytes = new Uint8Array(0);
  #view = new DataView(new ArrayBuffer(0));

  /** Wraps `memory`; the views follow it when it grows. */
  constructor(readonly memory: WebAssembly.Memory) {}

  #refresh(): void {
    // Growing a memory detaches its old buffer, which empties the views:
    // an empty view is the cue to look the buffer up again.
    if (this.#bytes.length !== 0) return;
    const buffer = this.memory.buffer as ArrayBuffer;
    this.#bytes = new Uint8Array(buffer);
    this.#view = new DataView(buffer);
  }

  /** Current size in bytes. */
  get size(): number {
    this.#refresh();
    return this.#bytes.length;
  }

  #check(ptr: number, len: number): void {
    this.#refresh();
    if (ptr + len > this.#bytes.length) {
      throw new CortexError(
        "out_of_bounds",
        `the plugin passed the range 0x${
          ptr.toString(16)
        }+${len}, outside its ${this.#bytes.length}-byte memory`,
      );
    }
  }

  /** A live view of `len` bytes at `ptr`. */
  bytes(ptr: number, len: number): Uint8Array {
    ptr >>>= 0;
    len >>>= 0;
    this.#check(ptr, len);
    return this.#bytes.subarray(ptr, ptr + len);
  }

  /** Decodes `len` bytes at `ptr` as UTF-8 (invalid sequences become U+FFFD). */
  readString(ptr: number, len: number): string {
    return decoder.decode(this.bytes(ptr, len));
  }

  /**
   * Encodes `text` as UTF-8 straight into `[ptr, ptr + capacity)` and returns
   * the byte length, or -1 when it does not fit.
   */
  encodeInto(text: string, ptr: number, capacity: number): number {
    const target = this.bytes(ptr, capacity);
    const { read, written } = encoder.encodeInto(text, target);
    return read === text.length ? written : -1;
  }

  /** Copies `data` to `ptr`. */
  write(ptr: number, data: Uint8Array): void {
    this.bytes(ptr, data.length).set(data);
  }

  /** Encodes `text` as UTF-8. */
  static encode(text: string): Uint8Array {
    return encoder.encode(text);
  }

  /** Reads a little-endian u32 at any address. */
  getU32(ptr: number): number {
    ptr >>>= 0;
    this.#check(ptr, 4);
    return this.#view.getUint32(ptr, true);
  }

  /** Writes a little-endian u32 at any address. */
  setU32(ptr: number, value: number): void {
    ptr >>>= 0;
    this.#check(ptr, 4);
    this.#view.setUint32(ptr, value >>> 0, true);
  }
}
