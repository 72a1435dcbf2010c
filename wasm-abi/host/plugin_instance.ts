import { CortexError } from "../../runtime/errors.ts";
import {
  ABI_VERSION,
  CORTEX_ERR_BUFFER_TOO_SMALL,
  HOST_REGION_PAGES,
  IMPORT_MODULE,
  OUT_LEN_SLOT,
  PAGE_SIZE,
} from "./abi.ts";
import { CallArena, type Placed } from "./call_arena.ts";
import { HostHeap } from "./host_heap.ts";
import { createHostImports, type ImportContext } from "./host_imports.ts";
import { LinearMemory } from "./linear_memory.ts";
import type { WorkerLimits } from "./messages.ts";

interface PluginExports {
  plugin_get_abi_version(): number;
  plugin_get_capabilities(outPtr: number, outLenPtr: number): number;
  plugin_execute_tool(
    namePtr: number,
    nameLen: number,
    argsPtr: number,
    argsLen: number,
    outPtr: number,
    outLenPtr: number,
  ): number;
  plugin_init?(): void;
  plugin_destroy?(): void;
  memory?: WebAssembly.Memory;
}

/** The outcome of one export call that writes into a host buffer. */
export interface OutputCall {
  /** The plugin's return code. */
  code: number;
  /** The bytes it wrote, decoded as UTF-8. */
  text: string;
}

const strictDecoder = new TextDecoder("utf-8", { fatal: true });

const MAX_NAME_BYTES = 256;

/**
 * An export was interrupted (a trap, or a host import that refused to go on),
 * so the instance's own state (its stack pointer, its allocator) may be
 * half-updated: the Worker replaces the instance before the next call.
 */
export class UnwoundError extends CortexError {}

/** Turns whatever an export threw into an {@link UnwoundError} with a stable code. */
export function asTrap(error: unknown): UnwoundError {
  if (error instanceof UnwoundError) return error;
  if (error instanceof CortexError) return new UnwoundError(error.code, error.message);
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    return new UnwoundError("trap", "the plugin trapped: call stack exhausted");
  }
  const message = error instanceof Error ? error.message : String(error);
  return new UnwoundError("trap", `the plugin trapped: ${message}`);
}

/**
 * One instance of a plugin module inside its Worker, with its own memory and
 * host heap. The host's buffers come from the host heap and its length slot
 * sits in the scratch area, so a buffer and a length slot never overlap and
 * every slot is 4-aligned.
 */
export class PluginInstance {
  readonly #exports: PluginExports;
  readonly #memory: LinearMemory;
  readonly #arena: CallArena;
  readonly #limits: WorkerLimits;

  private constructor(exports: PluginExports, memory: LinearMemory, arena: CallArena, limits: WorkerLimits) {
    this.#exports = exports;
    this.#memory = memory;
    this.#arena = arena;
    this.#limits = limits;
  }

  /**
   * Instantiates `module`, makes sure the host region exists, checks the ABI
   * version and runs `plugin_init`. Throws a CortexError (`start_trapped`,
   * `bad_memory_layout`, `abi_mismatch`, `init_failed`).
   */
  static create(
    module: WebAssembly.Module,
    context: Omit<ImportContext, "memory" | "heap">,
  ): PluginInstance {
    const heap = new HostHeap();
    let memory: LinearMemory | undefined;
    const imported = context.limits.importedMemory
      ? new WebAssembly.Memory({ ...context.limits.importedMemory })
      : undefined;
    if (imported) memory = new LinearMemory(imported);
    const env = createHostImports({
      ...context,
      heap: () => heap,
      memory: () => {
        if (!memory) {
          throw new CortexError(
            "no_memory",
            "host functions that use memory cannot run before the module has started; import env.memory to use them from a start function",
          );
        }
        return memory;
      },
    });
    let instance: WebAssembly.Instance;
    try {
      instance = new WebAssembly.Instance(module, {
        [IMPORT_MODULE]: imported ? { ...env, memory: imported } : env,
      });
    } catch (error) {
      if (error instanceof WebAssembly.LinkError) throw new CortexError("bad_import", error.message);
      throw new CortexError("start_trapped", `the module failed while starting: ${asTrap(error).message}`);
    }
    const exports = instance.exports as unknown as PluginExports;
    memory ??= new LinearMemory(exports.memory!);
    const pages = memory.size / PAGE_SIZE;
    if (pages < HOST_REGION_PAGES) {
      try {
        memory.memory.grow(HOST_REGION_PAGES - pages);
      } catch {
        throw new CortexError(
          "bad_memory_layout",
          "the plugin's memory cannot grow to the 1 MiB the host region needs",
        );
      }
    }
    // Reserved before plugin_init, which may take host heap of its own.
    const arena = new CallArena(heap, memory, context.limits.initialOutputBytes);
    let version: number;
    try {
      version = exports.plugin_get_abi_version();
    } catch (error) {
      throw new CortexError("abi_mismatch", `plugin_get_abi_version failed: ${asTrap(error).message}`);
    }
    if (version !== ABI_VERSION) {
      throw new CortexError(
        "abi_mismatch",
        `the plugin speaks ABI version ${version}; this host speaks ${ABI_VERSION}`,
      );
    }
    try {
      exports.plugin_init?.();
    } catch (error) {
      throw new CortexError("init_failed", `plugin_init failed: ${asTrap(error).message}`);
    }
    return new PluginInstance(exports, memory, arena, context.limits);
  }

  /** Reads the capabilities JSON (with the one retry on a small buffer). */
  capabilities(): OutputCall {
    return this.#withOutput((outPtr, outLenPtr) => this.#exports.plugin_get_capabilities(outPtr, outLenPtr));
  }

  /** Runs a tool. Throws a CortexError when the plugin traps or misbehaves. */
  execute(name: string, argsJson: string): OutputCall {
    const nameIn = this.#arena.name(name, MAX_NAME_BYTES);
    let argsIn: Placed;
    try {
      argsIn = this.#arena.args(argsJson, this.#limits.maxArgsBytes);
    } catch (error) {
      this.#arena.release(nameIn.ptr);
      throw error;
    }
    try {
      return this.#withOutput((outPtr, outLenPtr) =>
        this.#exports.plugin_execute_tool(nameIn.ptr, nameIn.len, argsIn.ptr, argsIn.len, outPtr, outLenPtr)
      );
    } finally {
      this.#arena.release(nameIn.ptr);
      this.#arena.release(argsIn.ptr);
    }
  }

  /** Calls `plugin_destroy`, if exported. */
  destroy(): void {
    this.#exports.plugin_destroy?.();
  }

  /**
   * Gives the export an output buffer whose capacity is in the length slot.
   * If the plugin answers CORTEX_ERR_BUFFER_TOO_SMALL or stores a length
   * larger than the capacity, it gets exactly one more call with a buffer of
   * the size it asked for.
   */
  #withOutput(call: (outPtr: number, outLenPtr: number) => number): OutputCall {
    let capacity = this.#limits.initialOutputBytes;
    for (let attempt = 1;; attempt++) {
      const outPtr = this.#arena.output(capacity);
      try {
        this.#memory.setU32(OUT_LEN_SLOT, capacity);
        let code: number;
        try {
          code = call(outPtr, OUT_LEN_SLOT);
        } catch (error) {
          throw asTrap(error);
        }
        const length = this.#memory.getU32(OUT_LEN_SLOT);
        if (code === CORTEX_ERR_BUFFER_TOO_SMALL || length > capacity) {
          if (length <= capacity) {
            throw new CortexError(
              "bad_output",
              `the plugin said its buffer was too small but asked for only ${length} bytes`,
            );
          }
          if (attempt === 2) {
            throw new CortexError(
              "output_too_large",
              `the plugin still needed more room after a retry with ${capacity} bytes`,
            );
          }
          if (length > this.#limits.maxOutputBytes) {
            throw new CortexError(
              "output_too_large",
              `the plugin asked for ${length} output bytes; the limit is ${this.#limits.maxOutputBytes}`,
            );
          }
          capacity = length;
          continue;
        }
        return { code, text: this.#decode(outPtr, length) };
      } finally {
        this.#arena.release(outPtr);
      }
    }
  }

  #decode(ptr: number, length: number): string {
    try {
      return strictDecoder.decode(this.#memory.bytes(ptr, length));
    } catch (error) {
      if (error instanceof CortexError) throw error;
      throw new CortexError("bad_output", "the plugin's output is not valid UTF-8");
    }
  }
}
