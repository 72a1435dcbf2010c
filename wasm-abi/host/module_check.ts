import { CortexError } from "../../runtime/errors.ts";
import {
  CORTEX_HEAP_BASE,
  HOST_IMPORTS,
  HOST_REGION_PAGES,
  IMPORT_MODULE,
  OPTIONAL_EXPORTS,
  REQUIRED_EXPORTS,
  type Signature,
} from "./abi.ts";
import { limitMemorySection, MalformedModule, type ModuleInfo, readModuleInfo } from "./wasm_binary.ts";

/** A module that passed {@link checkModule}, ready to send to the Worker. */
export interface CheckedModule {
  /** The module bytes, with its own memory capped at the page limit. */
  bytes: Uint8Array;
  /** Set when the module imports `env.memory`: the limits the host must create it with. */
  importedMemory?: { initial: number; maximum: number };
}

const sigText = (s: Signature) => `(${s.params.join(", ")}) -> (${s.results.join(", ")})`;
const sameTypes = (a: string[], b: string[]) => a.length === b.length && a.every((t, i) => t === b[i]);

function checkImports(info: ModuleInfo, maxPages: number): CheckedModule["importedMemory"] {
  let importedMemory: CheckedModule["importedMemory"];
  for (const imp of info.imports) {
    const label = `${imp.module}.${imp.name}`;
    if (imp.module === IMPORT_MODULE && imp.name === "memory" && imp.kind === "memory") {
      const limits = imp.limits!;
      checkMemoryKind(limits.shared, limits.memory64);
      checkMemorySize(limits.min, limits.max, maxPages);
      importedMemory = {
        initial: Math.max(limits.min, HOST_REGION_PAGES),
        maximum: Math.min(limits.max ?? maxPages, maxPages),
      };
      continue;
    }
    const wanted = imp.module === IMPORT_MODULE ? HOST_IMPORTS[imp.name] : undefined;
    if (!wanted) {
      throw new CortexError(
        "unknown_import",
        `the module imports ${label}, which the host does not offer (ABI v1 offers env.memory and env.${
          Object.keys(HOST_IMPORTS).join(", env.")
        })`,
      );
    }
    if (imp.kind !== "func") {
      throw new CortexError("bad_import", `${label} must be imported as a function, found a ${imp.kind}`);
    }
    if (imp.signature && !sameSignature(imp.signature, wanted)) {
      throw new CortexError(
        "bad_import",
        `${label} must have the signature ${sigText(wanted)}, found ${sigText(imp.signature)}`,
      );
    }
  }
  return importedMemory;
}

function sameSignature(a: Signature, b: Signature): boolean {
  return sameTypes(a.params, b.params) && sameTypes(a.results, b.results);
}

function checkMemoryKind(shared: boolean, memory64: boolean): void {
  if (memory64) {
    throw new CortexError(
      "unsupported_memory",
      "the plugin's memory is 64-bit; ABI v1 needs a 32-bit memory",
    );
  }
  if (shared) {
    throw new CortexError(
      "unsupported_memory",
      "the plugin's memory is shared; ABI v1 needs an unshared memory",
    );
  }
}

function checkMemorySize(min: number, max: number | undefined, maxPages: number): void {
  if (min > maxPages) {
    throw new CortexError(
      "memory_limit",
      `the plugin needs ${min} memory pages at start, more than its limit of ${maxPages}`,
    );
  }
  if (max !== undefined && max < HOST_REGION_PAGES) {
    throw new CortexError(
      "bad_memory_layout",
      `the plugin's memory may not grow past ${max} pages, but ABI v1 needs at least ${HOST_REGION_PAGES} (1 MiB)`,
    );
  }
}

function checkExports(info: ModuleInfo, hasImportedMemory: boolean): void {
  const byName = new Map(info.exports.map((e) => [e.name, e]));
  for (const [name, wanted] of Object.entries(REQUIRED_EXPORTS)) {
    const found = byName.get(name);
    if (!found) {
      throw new CortexError("missing_export", `the module does not export ${name}, which ABI v1 requires`);
    }
    if (found.kind !== "func") {
      throw new CortexError("bad_export", `${name} must be a function, found a ${found.kind}`);
    }
    if (found.signature && !sameSignature(found.signature, wanted)) {
      throw new CortexError(
        "bad_export",
        `${name} must have the signature ${sigText(wanted)}, found ${sigText(found.signature)}`,
      );
    }
  }
  for (const [name, wanted] of Object.entries(OPTIONAL_EXPORTS)) {
    const found = byName.get(name);
    if (!found) continue;
    if (found.kind !== "func" || (found.signature && !sameTypes(found.signature.params, wanted.params))) {
      throw new CortexError("bad_export", `${name} must be a function without parameters`);
    }
  }
  const memory = byName.get("memory");
  if (memory && memory.kind !== "memory") {
    throw new CortexError("bad_export", "the export named memory is not a memory");
  }
  if (!memory && !hasImportedMemory) {
    throw new CortexError("missing_export", "the module neither exports memory nor imports env.memory");
  }
}

/**
 * Checks a plugin module against ABI v1 before anything runs, and caps its
 * own memory at `maxPages`. Throws a {@link CortexError} whose code names
 * the problem: `not_wasm`, `unknown_import`, `bad_import`, `missing_export`,
 * `bad_export`, `unsupported_memory`, `memory_limit` or `bad_memory_layout`.
 *
 * @example
 * ```ts
 * const checked = checkModule(await Deno.readFile("echo.wasm"), 512);
 * ```
 */
export function checkModule(wasm: Uint8Array, maxPages: number): CheckedModule {
  let info: ModuleInfo;
  try {
    info = readModuleInfo(wasm);
  } catch (error) {
    if (!(error instanceof MalformedModule)) throw error;
    throw new CortexError("not_wasm", `the file is not a WebAssembly module: ${error.message}`);
  }
  if (!WebAssembly.validate(wasm as Uint8Array<ArrayBuffer>)) {
    throw new CortexError("not_wasm", "the WebAssembly module does not validate");
  }
  const importedMemory = checkImports(info, maxPages);
  const own = info.memories[0];
  if (own && !importedMemory) {
    checkMemoryKind(own.shared, own.memory64);
    checkMemorySize(own.min, own.max, maxPages);
  }
  checkExports(info, importedMemory !== undefined);
  const low = info.dataOffsets.find((offset) => offset < CORTEX_HEAP_BASE);
  if (low !== undefined) {
    throw new CortexError(
      "bad_memory_layout",
      `the module places data at 0x${low.toString(16)}, inside the host region below 0x100000; ` +
        "link it with --global-base=1048576 (C) or --memoryBase 1048576 (AssemblyScript)",
    );
  }
  return { bytes: limitMemorySection(wasm, info, maxPages), importedMemory };
}
