import { z } from "zod";
import { CortexError } from "../../runtime/errors.ts";
import { ABI_VERSION } from "./abi.ts";
import type { WasmToolDeclaration } from "./types.ts";

const param = z.object({
  name: z.string().min(1),
  type: z.enum(["string", "number", "boolean", "object", "array"]),
  description: z.string().default(""),
  required: z.boolean().default(false),
  enum: z.array(z.string()).optional(),
});

const tool = z.object({
  name: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, "a tool name is 1 to 64 letters, digits, '_', '.' or '-'"),
  description: z.string().default(""),
  params: z.array(param).default([]),
});

const capabilities = z.object({
  abi_version: z.literal(ABI_VERSION).optional(),
  tools: z.array(tool).optional(),
});

/**
 * Parses the JSON a plugin returns from `plugin_get_capabilities` into tool
 * declarations. Throws `bad_capabilities` for text that is not JSON or has
 * the wrong shape, and `no_tools` when it names no tool.
 *
 * @example
 * ```ts
 * const tools = parseCapabilities('{"abi_version":1,"tools":[{"name":"echo","params":[]}]}');
 * tools[0].inputSchema; // { type: "object", properties: {}, required: [] }
 * ```
 */
export function parseCapabilities(text: string): WasmToolDeclaration[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CortexError("bad_capabilities", "plugin_get_capabilities did not return valid JSON");
  }
  const parsed = capabilities.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CortexError(
      "bad_capabilities",
      `capabilities JSON at ${issue.path.join(".") || "top"}: ${issue.message}`,
    );
  }
  const tools = parsed.data.tools ?? [];
  if (tools.length === 0) throw new CortexError("no_tools", "the plugin's capabilities name no tools");
  const seen = new Set<string>();
  return tools.map((t) => {
    if (seen.has(t.name)) throw new CortexError("bad_capabilities", `the tool ${t.name} is declared twice`);
    seen.add(t.name);
    return {
      name: t.name,
      description: t.description,
      params: t.params,
      inputSchema: {
        type: "object" as const,
        properties: Object.fromEntries(
          t.params.map((
            p,
          ) => [p.name, { type: p.type, description: p.description, ...(p.enum ? { enum: p.enum } : {}) }]),
        ),
        required: t.params.filter((p) => p.required).map((p) => p.name),
      },
    };
  });
}
