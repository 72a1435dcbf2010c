/**
 * A small reader for the parts of a WebAssembly binary the host checks before
 * it starts a plugin: types, imports, functions, memories, exports, the start
 * function and the data segment offsets. It also rewrites the memory section
 * so the engine itself enforces the page limit.
 *
 * @module
 */

import type { Signature, ValType } from "./abi.ts";

/** Memory limits in pages. */
export interface MemoryLimits {
  /** Initial pages. */
  min: number;
  /** Maximum pages, when declared. */
  max?: number;
  /** A shared (threads) memory. */
  shared: boolean;
  /** A 64-bit memory. */
  memory64: boolean;
}

/** One import entry. */
export interface ImportEntry {
  /** Import module name. */
  module: string;
  /** Import field name. */
  name: string;
  /** External kind. */
  kind: "func" | "table" | "memory" | "global" | "tag";
  /** Signature of an imported function, when the type section could be read. */
  signature?: Signature;
  /** Limits of an imported memory. */
  limits?: MemoryLimits;
}

/** One export entry. */
export interface ExportEntry {
  /** Export name. */
  name: string;
  /** External kind. */
  kind: "func" | "table" | "memory" | "global" | "tag";
  /** Signature of an exported function, when known. */
  signature?: Signature;
}

/** What the host needs to know about a module. */
export interface ModuleInfo {
  /** Imports in order. */
  imports: ImportEntry[];
  /** Exports in order. */
  exports: ExportEntry[];
  /** Memories the module defines itself (not imported). */
  memories: MemoryLimits[];
  /** Constant offsets of active data segments for memory 0. */
  dataOffsets: number[];
  /** Whether the module has a start function. */
  hasStart: boolean;
  /** Byte range of the whole memory section (id byte included), if any. */
  memorySection?: { start: number; end: number };
}

const KINDS = ["func", "table", "memory", "global", "tag"] as const;

/** Thrown by {@link readModuleInfo} when the bytes are not a module it can read. */
export class MalformedModule extends Error {}

class Reader {
  pos: number;
  constructor(readonly bytes: Uint8Array, start = 0, readonly end = bytes.length) {
    this.pos = start;
  }
  byte(): number {
    if (this.pos >= this.end) throw new MalformedModule("unexpected end of module");
    return this.bytes[this.pos++];
  }
  u32(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = this.byte();
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
      shift += 7;
      if (shift > 63) throw new MalformedModule("integer too long");
    }
  }
  s64(): number {
    let result = 0;
    let shift = 0;
    let b: number;
    do {
      b = this.byte();
      result += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if (shift > 70) throw new MalformedModule("integer too long");
    } while (b & 0x80);
    if (b & 0x40) result -= 2 ** shift;
    return result;
  }
  name(): string {
    const len = this.u32();
    if (this.pos + len > this.end) throw new MalformedModule("name past end");
    const text = new TextDecoder().decode(this.bytes.subarray(this.pos, this.pos + len));
    this.pos += len;
    return text;
  }
  skip(n: number): void {
    this.pos += n;
    if (this.pos > this.end) throw new MalformedModule("section past end");
  }
}

function valType(r: Reader): ValType {
  const b = r.byte();
  switch (b) {
    case 0x7f:
      return "i32";
    case 0x7e:
      return "i64";
    case 0x7d:
      return "f32";
    case 0x7c:
      return "f64";
    case 0x7b:
      return "v128";
    case 0x63:
    case 0x64:
      r.s64(); // heap type
      return "ref";
    default:
      if (b >= 0x69 && b <= 0x74) return "ref";
      throw new MalformedModule(`unknown value type 0x${b.toString(16)}`);
  }
}

function limits(r: Reader): MemoryLimits {
  const flags = r.byte();
  const min = r.u32();
  const max = flags & 1 ? r.u32() : undefined;
  return { min, max, shared: (flags & 2) !== 0, memory64: (flags & 4) !== 0 };
}

function readTypes(r: Reader): Signature[] | undefined {
  const types: Signature[] = [];
  try {
    for (let n = r.u32(); n > 0; n--) {
      if (r.byte() !== 0x60) return undefined; // GC rec/sub types: signatures unchecked
      const params = Array.from({ length: r.u32() }, () => valType(r));
      const results = Array.from({ length: r.u32() }, () => valType(r));
      types.push({ params, results });
    }
  } catch {
    return undefined;
  }
  return types;
}

function constOffset(r: Reader): number | undefined {
  const op = r.byte();
  let value: number | undefined;
  if (op === 0x41) value = r.s64() >>> 0;
  else if (op === 0x42) value = r.s64();
  else if (op === 0x23) r.u32();
  else return undefined;
  // A plain constant ends right here; extended constant expressions do not.
  return r.byte() === 0x0b ? value : undefined;
}

function readData(r: Reader, out: number[]): void {
  for (let n = r.u32(); n > 0; n--) {
    const flags = r.u32();
    if (flags === 1) {
      r.skip(r.u32());
      continue;
    }
    const memIndex = flags === 2 ? r.u32() : 0;
    const offset = constOffset(r);
    // An offset computed from a global or an extended expression cannot be
    // known here; the rest of the section is left unchecked.
    if (offset === undefined) return;
    if (memIndex === 0) out.push(offset);
    r.skip(r.u32());
  }
}

/**
 * Reads the parts of a module the host validates.
 *
 * @example
 * ```ts
 * const info = readModuleInfo(await Deno.readFile("plugin.wasm"));
 * console.log(info.exports.map((e) => e.name));
 * ```
 */
export function readModuleInfo(bytes: Uint8Array): ModuleInfo {
  const magic = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  if (bytes.length < 8 || magic.some((b, i) => bytes[i] !== b)) {
    throw new MalformedModule("missing the \\0asm version 1 header");
  }
  const info: ModuleInfo = {
    imports: [],
    exports: [],
    memories: [],
    dataOffsets: [],
    hasStart: false,
  };
  let types: Signature[] | undefined = [];
  const funcTypes: (Signature | undefined)[] = [];
  const rawExports: { name: string; kind: ExportEntry["kind"]; index: number }[] = [];
  const r = new Reader(bytes, 8);
  while (r.pos < bytes.length) {
    const sectionStart = r.pos;
    const id = r.byte();
    const size = r.u32();
    const body = new Reader(bytes, r.pos, r.pos + size);
    r.skip(size);
    if (id === 1) types = readTypes(body);
    else if (id === 2) {
      for (let n = body.u32(); n > 0; n--) {
        const module = body.name();
        const name = body.name();
        const kind = KINDS[body.byte()];
        if (!kind) throw new MalformedModule("unknown import kind");
        const entry: ImportEntry = { module, name, kind };
        if (kind === "func") {
          const index = body.u32();
          entry.signature = types?.[index];
          funcTypes.push(entry.signature);
        } else if (kind === "table") {
          valType(body);
          limits(body);
        } else if (kind === "memory") entry.limits = limits(body);
        else if (kind === "global") {
          valType(body);
          body.byte();
        } else {
          body.byte();
          body.u32();
        }
        info.imports.push(entry);
      }
    } else if (id === 3) {
      for (let n = body.u32(); n > 0; n--) funcTypes.push(types?.[body.u32()]);
    } else if (id === 5) {
      for (let n = body.u32(); n > 0; n--) info.memories.push(limits(body));
      info.memorySection = { start: sectionStart, end: r.pos };
    } else if (id === 7) {
      for (let n = body.u32(); n > 0; n--) {
        const name = body.name();
        const kind = KINDS[body.byte()];
        if (!kind) throw new MalformedModule("unknown export kind");
        rawExports.push({ name, kind, index: body.u32() });
      }
    } else if (id === 8) info.hasStart = true;
    else if (id === 11) readData(body, info.dataOffsets);
  }
  info.exports = rawExports.map(({ name, kind, index }) => ({
    name,
    kind,
    signature: kind === "func" ? funcTypes[index] : undefined,
  }));
  return info;
}

function leb(value: number): number[] {
  const out: number[] = [];
  do {
    let b = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) b |= 0x80;
    out.push(b);
  } while (value > 0);
  return out;
}

/**
 * Returns a copy of the module whose own memories have `max <= maxPages`, so
 * `memory.grow` inside the plugin fails past the limit. Modules without a
 * memory section are returned unchanged (an imported memory is limited by the
 * host when it creates it).
 */
export function limitMemorySection(
  bytes: Uint8Array,
  info: ModuleInfo,
  maxPages: number,
): Uint8Array<ArrayBuffer> {
  if (!info.memorySection) return bytes.slice();
  const content: number[] = [...leb(info.memories.length)];
  for (const m of info.memories) {
    const max = Math.min(m.max ?? maxPages, maxPages);
    const flags = 1 | (m.shared ? 2 : 0) | (m.memory64 ? 4 : 0);
    content.push(flags, ...leb(m.min), ...leb(max));
  }
  const section = [5, ...leb(content.length), ...content];
  const { start, end } = info.memorySection;
  const out = new Uint8Array(bytes.length - (end - start) + section.length);
  out.set(bytes.subarray(0, start), 0);
  out.set(section, start);
  out.set(bytes.subarray(end), start + section.length);
  return out;
}
