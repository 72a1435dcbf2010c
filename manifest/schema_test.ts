import assert from "node:assert/strict";
import { CortexError } from "../runtime/errors.ts";
import { parseManifest } from "./read_manifest.ts";
import { manifestJsonSchema } from "./schema.ts";

const VALID = {
  name: "cortex-plugin-sample",
  version: "1.0.0",
  description: "A sample",
  kind: "esm",
  entryPoint: "mod.ts",
  runtime: "deno",
  capabilities: ["tools"],
};

const REQUIRED = ["name", "version", "description", "kind", "entryPoint", "runtime", "capabilities"];

/** Parses `value` (an object is stringified) and returns the error it raises. */
function refusal(value: unknown, source = "manifest.json"): CortexError {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  try {
    parseManifest(text, { source });
  } catch (error) {
    assert.ok(error instanceof CortexError, `expected a CortexError, got ${error}`);
    return error;
  }
  assert.fail(`the manifest was accepted: ${text}`);
}

function without(key: string): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...VALID };
  delete copy[key];
  return copy;
}

Deno.test("parseManifest: a valid manifest parses, with defaults filled in", () => {
  const m = parseManifest(JSON.stringify({
    ...VALID,
    tools: [{ name: "lookup", params: [{ name: "q", type: "string" }] }],
  }));
  assert.equal(m.name, "cortex-plugin-sample");
  assert.deepEqual(m.capabilities, ["tools"]);
  assert.equal(m.tools?.[0].description, "");
  assert.equal(m.tools?.[0].params[0].description, "");
});

Deno.test("parseManifest: text that is not JSON is manifest_not_json and names the file", () => {
  const e = refusal("{ name: 'x' ", "cortex.json");
  assert.equal(e.code, "manifest_not_json");
  assert.match(e.message, /cortex\.json is not valid JSON/);
});

Deno.test("parseManifest: JSON that is not an object is refused", () => {
  for (const text of ["[]", "null", "42", '"manifest"']) {
    const e = refusal(text);
    assert.equal(e.code, "manifest_invalid");
    assert.match(e.message, /must be a JSON object/);
  }
});

Deno.test("parseManifest: each missing required field is named", () => {
  for (const key of REQUIRED) {
    const e = refusal(without(key));
    assert.equal(e.code, "manifest_invalid");
    assert.match(e.message, new RegExp(`\\b${key}: `), `field ${key} not named in: ${e.message}`);
  }
});

// BUG: a missing field is reported as "name: expected string" (or, for the
// enums kind/runtime, as an invalid option) instead of saying it is missing;
// format_issues.ts overwrites the message before testing it for "received undefined".
Deno.test("parseManifest: a missing required field is reported as missing", () => {
  for (const key of REQUIRED) {
    const e = refusal(without(key));
    assert.match(e.message, new RegExp(`${key}: is required`), e.message);
  }
});

Deno.test("parseManifest: a field of the wrong type names the field and the expected type", () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ version: 1 }, /version: expected string/],
    [{ description: ["x"] }, /description: expected string/],
    [{ capabilities: "tools" }, /capabilities: expected array/],
    [{ tools: {} }, /tools: expected array/],
    [{ dependencies: ["a"] }, /dependencies: expected (record|object)/],
    [
      { tools: [{ name: "t", params: [{ name: "p", type: "date" }] }] },
      /tools\[0\]\.params\[0\]\.type: .*"string"/,
    ],
  ];
  for (const [patch, expected] of cases) {
    const e = refusal({ ...VALID, ...patch });
    assert.equal(e.code, "manifest_invalid");
    assert.match(e.message, expected);
  }
});

Deno.test("parseManifest: an unknown kind is refused, naming the kinds allowed", () => {
  const e = refusal({ ...VALID, kind: "python" });
  assert.match(e.message, /kind: .*"esm".*"mcp".*"wasm"/);
});

Deno.test("parseManifest: an unknown capability is named, with its position", () => {
  const e = refusal({ ...VALID, capabilities: ["tools", "teleport"] });
  assert.match(e.message, /capabilities\[1\]: unknown capability "teleport"/);
});

Deno.test("parseManifest: every documented capability is accepted", () => {
  const all = [
    "tools",
    "cli:commands",
    "ui:panel",
    "ui:widget",
    "config:schema",
    "config:provider",
    "memory:store",
    "memory:embedder",
    "events:listener",
    "middleware:pre",
    "middleware:post",
    "fs:read",
    "fs:write",
    "fs:list",
    "fs:edit",
    "fs:delete",
    "fs:search",
    "shell:run",
    "network:fetch",
    "net:outbound",
    "net:inbound",
    "db:read",
    "db:write",
  ];
  assert.deepEqual(parseManifest(JSON.stringify({ ...VALID, capabilities: all })).capabilities, all);
});

Deno.test("parseManifest: names that are not kebab-case are refused", () => {
  for (
    const name of [
      "MyPlugin",
      "my_plugin",
      "my--plugin",
      "-plugin",
      "plugin-",
      "my plugin",
      "",
      "a".repeat(65),
    ]
  ) {
    const e = refusal({ ...VALID, name });
    assert.equal(e.code, "manifest_invalid");
    assert.match(e.message, /name: /, `name ${JSON.stringify(name)}: ${e.message}`);
  }
});

Deno.test("parseManifest: names that could escape the plugins folder are refused", () => {
  for (const name of ["../evil", "..", "a/b", "a\\b", "/abs", "."]) {
    const e = refusal({ ...VALID, name });
    assert.match(e.message, /name: a plugin name must be kebab-case/, name);
  }
});

Deno.test("parseManifest: kind and runtime must match", () => {
  const cases: [string, string, string][] = [
    ["esm", "wasm", "deno"],
    ["wasm", "deno", "wasm"],
    ["mcp", "wasm", "deno"],
  ];
  for (const [kind, runtime, expected] of cases) {
    const e = refusal({ ...VALID, kind, runtime });
    assert.match(e.message, new RegExp(`runtime: kind "${kind}" runs with runtime "${expected}"`));
  }
});

Deno.test("parseManifest: events need the events:listener capability", () => {
  const e = refusal({ ...VALID, events: ["tool:post-execute"] });
  assert.match(e.message, /events: .*"events:listener"/);
  const ok = parseManifest(JSON.stringify({
    ...VALID,
    capabilities: ["events:listener"],
    events: ["tool:post-execute"],
  }));
  assert.deepEqual(ok.events, ["tool:post-execute"]);
});

Deno.test("parseManifest: an unknown event type is named", () => {
  const e = refusal({ ...VALID, capabilities: ["events:listener"], events: ["tool:exploded"] });
  assert.match(e.message, /events\[0\]: unknown event type "tool:exploded"/);
});

Deno.test("parseManifest: versions, ranges and hashes are checked", () => {
  assert.match(refusal({ ...VALID, version: "1.0" }).message, /version: expected a semantic version/);
  assert.match(
    refusal({ ...VALID, dependencies: { other: "soon" } }).message,
    /dependencies\.other: expected a semver range/,
  );
  assert.match(
    refusal({ ...VALID, peerDependencies: { cortex: "latest-ish" } }).message,
    /peerDependencies\.cortex: expected a semver range/,
  );
  assert.match(refusal({ ...VALID, hash: "abc" }).message, /hash: expected a SHA-256 hex digest/);
  const hex = "a".repeat(64);
  assert.equal(parseManifest(JSON.stringify({ ...VALID, hash: `sha256-${hex}` })).hash, `sha256-${hex}`);
});

Deno.test("parseManifest: a dependency name that is not a plugin name is refused", () => {
  const e = refusal({ ...VALID, dependencies: { "../x": "^1.0.0" } });
  assert.match(e.message, /dependencies/);
});

Deno.test("parseManifest: a tool declared twice is named", () => {
  const e = refusal({ ...VALID, tools: [{ name: "a" }, { name: "a" }] });
  assert.match(e.message, /tools\[1\]\.name: tool "a" is declared twice/);
});

Deno.test("parseManifest: an empty entry point is refused", () => {
  assert.match(refusal({ ...VALID, entryPoint: "" }).message, /entryPoint: /);
});

Deno.test("parseManifest: every problem is listed, not only the first", () => {
  const e = refusal({ ...VALID, version: "x", capabilities: ["tools", "warp"] });
  assert.match(e.message, /version: /);
  assert.match(e.message, /unknown capability "warp"/);
});

Deno.test("parseManifest: extra keys such as aiDisclosure are kept", () => {
  const m = parseManifest(JSON.stringify({
    ...VALID,
    aiDisclosure: { tools: ["an assistant"], humanReview: true },
    tools: [{ name: "t", params: [{ name: "n", type: "string", default: "x" }] }],
    ui: { settings: [{ section: "General", fields: [{ key: "k", label: "K", type: "text", default: 3 }] }] },
  })) as unknown as { aiDisclosure: unknown; tools: { params: Record<string, unknown>[] }[] };
  assert.deepEqual(m.aiDisclosure, { tools: ["an assistant"], humanReview: true });
  assert.equal(m.tools[0].params[0].default, "x");
});

Deno.test("manifestJsonSchema: is JSON, draft 2020-12, and requires the documented fields", () => {
  const schema = JSON.parse(JSON.stringify(manifestJsonSchema()));
  assert.equal(schema.$schema, "https://json-schema.org/draft/2020-12/schema");
  assert.equal(schema.type, "object");
  assert.deepEqual([...schema.required].sort(), [...REQUIRED].sort());
  for (
    const key of [...REQUIRED, "tools", "ui", "config", "events", "dependencies", "peerDependencies", "hash"]
  ) {
    assert.ok(schema.properties[key], `the JSON Schema lacks ${key}`);
  }
  assert.ok(schema.properties.capabilities.items.enum.includes("middleware:pre"));
  assert.ok(schema.properties.kind.enum.includes("esm"));
  assert.equal(schema.properties.name.pattern, "^[a-z0-9]+(?:-[a-z0-9]+)*$");
});
