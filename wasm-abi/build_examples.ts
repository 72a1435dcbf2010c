/**
 * Builds the example WASM plugins from source: `examples/wasm/echo-c`
 * (clang + wasm-ld) and `examples/wasm/echo-as` (the AssemblyScript
 * compiler from npm, run in process). Tests call these functions to build
 * into a temporary folder; run this file to refresh the committed `.wasm`
 * files.
 *
 * ```sh
 * deno run -A wasm-abi/build_examples.ts
 * ```
 *
 * Needs `clang` and `wasm-ld` (Debian: `apt-get install -y clang lld`).
 *
 * @module
 */

import { CortexError } from "../runtime/errors.ts";

/** The repository root. */
export const REPO_ROOT: string = new URL("..", import.meta.url).pathname;

const C_INCLUDE = `${REPO_ROOT}wasm-abi/c`;
const AS_ABORT = "wasm-abi/assemblyscript/assembly/abi/cortexAbort";

/** Options for {@link compileC}. */
export interface CompileCOptions {
  /** Extra compiler or linker flags (e.g. `-Wl,--import-memory`). */
  flags?: string[];
}

/**
 * Compiles one C plugin source to a WASM module with the ABI's layout
 * (`--global-base=1048576`) and no libc.
 *
 * @example
 * ```ts
 * await compileC("examples/wasm/echo-c/echo.c", "/tmp/echo.wasm");
 * ```
 */
export async function compileC(source: string, output: string, options: CompileCOptions = {}): Promise<void> {
  const args = [
    "--target=wasm32",
    "-O2",
    "-nostdlib",
    "-ffreestanding",
    "-mbulk-memory",
    "-Wall",
    "-Wextra",
    "-Werror",
    `-I${C_INCLUDE}`,
    "-Wl,--no-entry",
    "-Wl,--global-base=1048576",
    ...(options.flags ?? []),
    "-o",
    output,
    source,
  ];
  let result: Deno.CommandOutput;
  try {
    result = await new Deno.Command("clang", { args, cwd: REPO_ROOT, stdout: "piped", stderr: "piped" })
      .output();
  } catch (error) {
    throw new CortexError(
      "build_failed",
      "clang was not found; install it with: apt-get install -y clang lld",
      {
        cause: error,
      },
    );
  }
  if (!result.success) {
    throw new CortexError(
      "build_failed",
      `clang failed on ${source}:\n${new TextDecoder().decode(result.stderr)}`,
    );
  }
}

/**
 * Compiles an AssemblyScript plugin entry (a path relative to the
 * repository root) with the kit's settings: data from 1 MiB up and
 * `abort` routed to the kit's logging trap.
 *
 * @example
 * ```ts
 * await compileAssemblyScript("examples/wasm/echo-as/echo.ts", "/tmp/echo-as.wasm");
 * ```
 */
export async function compileAssemblyScript(entry: string, output: string): Promise<void> {
  // Loaded on demand: the compiler is large and only this function needs it.
  const { default: asc } = await import("assemblyscript/asc");
  let binary: Uint8Array | undefined;
  const errors: string[] = [];
  const { error } = await asc.main([
    entry,
    "--baseDir",
    REPO_ROOT,
    "--outFile",
    "plugin.wasm",
    "-O3",
    "--memoryBase",
    "1048576",
    "--use",
    `abort=${AS_ABORT}`,
  ], {
    writeFile(name: string, contents: Uint8Array | string) {
      if (name.endsWith(".wasm") && contents instanceof Uint8Array) binary = contents;
    },
    stderr: { write: (text: string) => void errors.push(text) },
    stdout: { write: () => {} },
  });
  if (error || !binary) {
    throw new CortexError(
      "build_failed",
      `asc failed on ${entry}: ${error?.message ?? "no output"}\n${errors.join("")}`,
    );
  }
  await Deno.writeFile(output, binary);
}

/** Where {@link buildExamples} put each module. */
export interface BuiltExamples {
  /** The C example. */
  c: string;
  /** The AssemblyScript example. */
  as: string;
}

/**
 * Builds both examples into `outDir` (default: beside their sources, as
 * `echo.wasm`).
 */
export async function buildExamples(options: { outDir?: string } = {}): Promise<BuiltExamples> {
  const dir = (name: string) => options.outDir ?? `${REPO_ROOT}examples/wasm/${name}`;
  const c = `${dir("echo-c")}/${options.outDir ? "echo-c.wasm" : "echo.wasm"}`;
  const as = `${dir("echo-as")}/${options.outDir ? "echo-as.wasm" : "echo.wasm"}`;
  await compileC("examples/wasm/echo-c/echo.c", c);
  await compileAssemblyScript("examples/wasm/echo-as/echo.ts", as);
  return { c, as };
}

if (import.meta.main) {
  const built = await buildExamples();
  console.log(`built ${built.c}\nbuilt ${built.as}`);
}
