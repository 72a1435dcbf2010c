import assert from "node:assert/strict";
import { derivePermissions } from "./derive_permissions.ts";

const dirs = { pluginDir: "/h/data/plugins/p", dataDir: "/h/data/plugin-data/p" };
const options = { sourceReads: ["/src/loaders/worker"], daemonPorts: [8787] };

Deno.test("derivePermissions: tools only reads its own code and nothing else", () => {
  const p = derivePermissions({ capabilities: ["tools"], grants: {}, ...dirs }, options);
  assert.deepEqual(p.worker, {
    read: ["/src/loaders/worker", "/h/data/plugins/p"],
    write: false,
    net: false,
    run: false,
    env: false,
    ffi: false,
    sys: false,
    import: false,
  });
  assert.equal(p.privileged, false);
});

Deno.test("derivePermissions: fs:write writes only the data folder", () => {
  const p = derivePermissions({ capabilities: ["fs:write"], grants: {}, ...dirs }, options);
  assert.deepEqual(p.worker.write, ["/h/data/plugin-data/p"]);
  assert.ok((p.worker.read as string[]).includes("/h/data/plugin-data/p"));
  assert.equal(p.privileged, true);
});

Deno.test("derivePermissions: network and shell need both the capability and the person's grant", () => {
  const grants = {
    "network:fetch": ["api.example.com:443", "127.0.0.1:8787"],
    "shell:run": ["git", "rm -rf"],
  };
  assert.equal(derivePermissions({ capabilities: ["tools"], grants, ...dirs }, options).worker.net, false);
  assert.equal(
    derivePermissions({ capabilities: ["network:fetch"], grants: {}, ...dirs }, options).worker.net,
    false,
  );
  const p = derivePermissions({ capabilities: ["network:fetch", "shell:run"], grants, ...dirs }, options);
  assert.deepEqual(p.worker.net, ["api.example.com:443"]);
  assert.deepEqual(p.worker.run, ["git"]);
  assert.deepEqual(p.refused.map((r) => r.grant), ["127.0.0.1:8787", "rm -rf"]);
});

Deno.test("derivePermissions: a path with a comma is refused rather than split", () => {
  assert.throws(
    () => derivePermissions({ capabilities: [], grants: {}, pluginDir: "/a,b", dataDir: "/d" }, options),
    /comma/,
  );
});
