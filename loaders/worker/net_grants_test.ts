import assert from "node:assert/strict";
import { filterNetGrants, isLocalHost, parseHostGrant } from "./net_grants.ts";

Deno.test("parseHostGrant reads host[:port] and refuses anything wider", () => {
  assert.deepEqual(parseHostGrant("API.example.com:443"), { host: "api.example.com", port: 443 });
  assert.deepEqual(parseHostGrant("10.0.0.1"), { host: "10.0.0.1", port: undefined });
  assert.deepEqual(parseHostGrant("[::1]:8080"), { host: "[::1]", port: 8080 });
  for (
    const bad of [
      "",
      "*",
      "*.example.com",
      "a,b",
      "http://x.com",
      "x.com:0",
      "x.com:70000",
      "300.1.1.1",
      "a b",
    ]
  ) {
    assert.equal(parseHostGrant(bad), undefined, bad);
  }
});

Deno.test("isLocalHost knows loopback and unspecified addresses", () => {
  for (const h of ["localhost", "app.localhost", "127.0.0.1", "127.9.9.9", "0.0.0.0", "[::1]", "[::]"]) {
    assert.ok(isLocalHost(h), h);
  }
  for (const h of ["example.com", "10.0.0.1", "[2001:db8::1]"]) assert.ok(!isLocalHost(h), h);
});

Deno.test("filterNetGrants drops grants that could reach the daemon, even when granted", () => {
  const { hosts, refused } = filterNetGrants(
    [
      "api.example.com:443",
      "127.0.0.1:8787",
      "localhost",
      "127.0.0.1:5432",
      "bad host",
      "api.example.com:443",
    ],
    { daemonPorts: [8787] },
  );
  assert.deepEqual(hosts, ["api.example.com:443", "127.0.0.1:5432"]);
  assert.deepEqual(refused.map((r) => r.grant), ["127.0.0.1:8787", "localhost", "bad host"]);
});

Deno.test("filterNetGrants keeps an exact loopback grant when no daemon port is known", () => {
  assert.deepEqual(filterNetGrants(["127.0.0.1:9000", "localhost"]).hosts, ["127.0.0.1:9000", "localhost"]);
});
