import { deepEqual, equal, throws } from "node:assert/strict";
import { CortexError } from "../../runtime/errors.ts";
import { denoPermissionFlags } from "./deno_permission_flags.ts";

const dirs = { pluginDir: "/p/x", dataDir: "/d/x" };

Deno.test("no permission capability: read own folders, env, nothing else, never a prompt", () => {
  deepEqual(denoPermissionFlags(["tools"], dirs), ["--no-prompt", "--allow-env", "--allow-read=/p/x,/d/x"]);
});

Deno.test("each capability opens exactly its door", () => {
  const flags = denoPermissionFlags(["fs:write", "net:outbound", "shell:run"], {
    ...dirs,
    denyNet: ["127.0.0.1:4100"],
    denyRead: ["/home/me/.cortex"],
  });
  deepEqual(flags, [
    "--no-prompt",
    "--allow-env",
    "--allow-read=/p/x,/d/x",
    "--allow-write=/d/x",
    "--allow-net",
    "--deny-net=127.0.0.1:4100",
    "--deny-read=/home/me/.cortex",
    "--allow-run",
  ]);
  equal(denoPermissionFlags(["network:fetch"], dirs).includes("--allow-net"), true);
  equal(denoPermissionFlags(["db:read", "db:write", "fs:read"], dirs).some((f) => f.includes("net")), false);
});

Deno.test("a comma in a path cannot widen a grant", () => {
  throws(
    () => denoPermissionFlags([], { pluginDir: "/p/x,/" }),
    (error: unknown) => error instanceof CortexError && error.code === "mcp_manifest_invalid",
  );
});

Deno.test("the flags hold in a real Deno child: no network and no reads outside the grant", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cortex-perm-" });
  try {
    const flags = denoPermissionFlags(["tools"], { pluginDir: dir });
    const probe = [
      "const r = [];",
      "try { await Deno.readTextFile('/etc/hostname'); r.push('read'); } catch (e) { r.push(e.name); }",
      "try { await fetch('http://127.0.0.1:45678/'); r.push('net'); } catch (e) { r.push(e.name); }",
      `await Deno.writeTextFile(${
        JSON.stringify(`${dir}/ok.txt`)
      }, 'x').then(() => r.push('write'), (e) => r.push(e.name));`,
      "console.log(r.join(','));",
    ].join("\n");
    const script = `${dir}/probe.ts`;
    await Deno.writeTextFile(script, probe);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", ...flags, "--no-config", script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    equal(new TextDecoder().decode(out.stdout).trim(), "NotCapable,NotCapable,NotCapable");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
