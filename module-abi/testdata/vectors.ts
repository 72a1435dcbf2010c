/**
 * Loads the wire test vectors and expands their byte and value specs
 * (see README.md beside this file). Used by tests only.
 *
 * @module
 */

/** A raw input as the vector files write it. */
export type ByteSpec = string | { base64: string } | {
  repeat: string;
  count: number;
} | ByteSpec[];

const encoder = new TextEncoder();

/** Reads one `.jsonl` vector file from this folder. */
export async function loadVectors<T>(file: string): Promise<T[]> {
  const text = await Deno.readTextFile(new URL(file, import.meta.url));
  return text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as T);
}

/** The bytes a byte spec stands for. */
export function expandBytes(spec: ByteSpec): Uint8Array {
  if (typeof spec === "string") return encoder.encode(spec);
  if (Array.isArray(spec)) {
    const parts = spec.map(expandBytes);
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const part of parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }
  if ("base64" in spec) {
    return Uint8Array.from(atob(spec.base64), (c) => c.charCodeAt(0));
  }
  return encoder.encode(spec.repeat.repeat(spec.count));
}

/** The value a value spec stands for, with `$repeat` and `$nest` markers expanded. */
export function expandValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(expandValue);
  if (typeof value !== "object" || value === null) return value;
  const record = value as Record<string, unknown>;
  if (typeof record.$repeat === "string") {
    return record.$repeat.repeat(record.count as number);
  }
  if (typeof record.$nest === "number") {
    let nested: unknown[] = [];
    for (let i = 1; i < record.$nest; i++) nested = [nested];
    return nested;
  }
  return Object.fromEntries(
    Object.entries(record).map(([k, v]) => [k, expandValue(v)]),
  );
}
