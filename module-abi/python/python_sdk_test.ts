import { ok } from "node:assert/strict";

Deno.test("python SDK: replays the wire vectors (python3 -m unittest)", async () => {
  const here = new URL(".", import.meta.url).pathname;
  const result = await new Deno.Command("python3", {
    args: ["-m", "unittest", "discover", "-s", here, "-p", "test_*.py"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(result.stderr);
  ok(result.success, text);
  ok(/Ran [1-9]\d* tests/.test(text), text);
});
