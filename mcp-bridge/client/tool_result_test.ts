import { deepEqual, equal } from "node:assert/strict";
import { toCallResult } from "./tool_result.ts";
import { toToolInfo } from "./tool_info.ts";

Deno.test("text blocks join; other blocks are summarised, never dumped as base64", () => {
  const raw = {
    content: [
      { type: "text", text: "line one" },
      { type: "image", mimeType: "image/png", data: "AAAA" },
      { type: "resource", resource: { uri: "file:///a.txt", text: "inline" } },
      { type: "resource_link", uri: "res://x", name: "x" },
    ],
  };
  equal(toCallResult(raw).output, "line one\n[image image/png, 3 bytes]\ninline\n[resource link res://x]");
});

Deno.test("isError is a failure; structured content stands in for missing text; output is capped", () => {
  deepEqual(toCallResult({ content: [{ type: "text", text: "nope" }], isError: true }), {
    success: false,
    output: "nope",
    error: "nope",
    raw: { content: [{ type: "text", text: "nope" }], isError: true },
  });
  equal(toCallResult({ content: [], structuredContent: { temp: 21 } }).output, '{"temp":21}');
  equal(
    toCallResult({ content: [{ type: "text", text: "x".repeat(50) }] }, { maxOutput: 10 }).output.length < 60,
    true,
  );
});

Deno.test("tools with unsafe names or no object schema are refused with a reason", () => {
  equal(toToolInfo({ name: "ok_tool", inputSchema: { type: "object" } }).tool?.name, "ok_tool");
  equal(toToolInfo({ name: "has space", inputSchema: { type: "object" } }).tool, undefined);
  equal(toToolInfo({ name: "x".repeat(129), inputSchema: { type: "object" } }).tool, undefined);
  equal(toToolInfo({ name: "arr", inputSchema: { type: "array" } }).tool, undefined);
  deepEqual(toToolInfo({ name: "a", inputSchema: { type: "object" } }).tool?.annotations, {});
});
