import { equal } from "node:assert/strict";
import { decodeUtf8 } from "./utf8.ts";

Deno.test("utf8: valid text decodes, a byte-order mark is kept, invalid bytes give undefined", () => {
  const encode = (text: string) => new TextEncoder().encode(text);
  equal(decodeUtf8(encode('{"a":"é☃😀"}')), '{"a":"é☃😀"}');
  equal(decodeUtf8(Uint8Array.of(0xef, 0xbb, 0xbf, 0x7b, 0x7d)), "\uFEFF{}");
  equal(decodeUtf8(Uint8Array.of(0x7b, 0xff, 0x7d)), undefined);
  equal(decodeUtf8(Uint8Array.of(0xed, 0xa0, 0x80)), undefined); // an encoded surrogate
  equal(decodeUtf8(Uint8Array.of(0xe2, 0x98)), undefined); // cut short
});

Deno.test("utf8: a real U+FFFD in valid text is kept, not taken for an error", () => {
  const bytes = new TextEncoder().encode("a\uFFFDb");
  equal(decodeUtf8(bytes), "a\uFFFDb");
});
