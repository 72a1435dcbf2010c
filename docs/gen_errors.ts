/**
 * Writes docs/errors.md from the error-code lists in the code, so the
 * document cannot drift: `deno run -A docs/gen_errors.ts`. A test checks it
 * is current.
 *
 * @module
 */
import { ERROR_CODES } from "../runtime/errors.ts";
import { MCP_ERROR_CODES } from "../mcp-bridge/error_codes.ts";
import { MODULE_ERROR_CODES } from "../module-abi/errors.ts";
import { SCAFFOLD_ERROR_CODES } from "../scaffold/errors.ts";
import { WASM_ERROR_CODES } from "../wasm-abi/host/error_codes.ts";

const SECTIONS: [string, string, Readonly<Record<string, string>>][] = [
  ["Core runtime", "runtime/errors.ts", ERROR_CODES],
  ["WASM plugins", "wasm-abi/host/error_codes.ts", WASM_ERROR_CODES],
  ["MCP bridge", "mcp-bridge/error_codes.ts", MCP_ERROR_CODES],
  ["CortexFS modules", "module-abi/errors.ts", MODULE_ERROR_CODES],
  ["Scaffold", "scaffold/errors.ts", SCAFFOLD_ERROR_CODES],
];

/** The text of docs/errors.md. */
export function errorsDocument(): string {
  const lines = [
    "# Error codes",
    "",
    "Every error the runtime reports carries a short, stable, lowercase `code` and a plain message that",
    'never holds a secret or prompt text. In JSON (CLI `--json`, HTTP) it is `{ "error": { "code", "message" } }`.',
    "This page is generated from the lists in the code by `deno run -A docs/gen_errors.ts`.",
  ];
  for (const [title, file, codes] of SECTIONS) {
    lines.push("", `## ${title}`, "", `From \`${file}\`.`, "", "| code | meaning |", "|---|---|");
    for (const [code, meaning] of Object.entries(codes).sort(([a], [b]) => (a < b ? -1 : 1))) {
      lines.push(`| \`${code}\` | ${meaning.replaceAll("|", "\\|")} |`);
    }
  }
  return lines.join("\n") + "\n";
}

if (import.meta.main) {
  await Deno.writeTextFile(new URL("./errors.md", import.meta.url), errorsDocument());
}
