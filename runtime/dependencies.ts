/**
 * Plugin dependencies: checked with npm's semver at install and at every
 * load, and the order plugins load in.
 *
 * @module
 */
import semver from "semver";
import type { Manifest } from "../manifest/schema.ts";
import { CortexError } from "./errors.ts";
import { CORTEX_VERSION } from "./version.ts";

/** Name and version of an installed plugin. */
export interface InstalledVersion {
  /** Plugin name. */
  name: string;
  /** Installed version. */
  version: string;
}

/**
 * Checks `manifest`'s dependencies against installed plugins and its
 * `peerDependencies.cortex` against this runtime.
 *
 * @throws {CortexError} `dependency_missing` or `dependency_unsatisfied`, naming each problem.
 */
export function checkDependencies(
  manifest: Pick<Manifest, "name" | "dependencies" | "peerDependencies">,
  installed: readonly InstalledVersion[],
  options: { runtimeVersion?: string } = {},
): void {
  const byName = new Map(installed.map((p) => [p.name, p.version]));
  const missing: string[] = [];
  const unsatisfied: string[] = [];
  for (const [name, range] of Object.entries(manifest.dependencies ?? {})) {
    const version = byName.get(name);
    if (version === undefined) missing.push(`${name} (${range})`);
    else if (!semver.satisfies(version, range, { includePrerelease: true })) {
      unsatisfied.push(`${name} ${range} (installed: ${version})`);
    }
  }
  const hostRange = manifest.peerDependencies?.cortex;
  const runtimeVersion = options.runtimeVersion ?? CORTEX_VERSION;
  if (hostRange !== undefined && !semver.satisfies(runtimeVersion, hostRange, { includePrerelease: true })) {
    unsatisfied.push(`cortex ${hostRange} (this runtime: ${runtimeVersion})`);
  }
  if (missing.length) {
    throw new CortexError(
      "dependency_missing",
      `${manifest.name} needs plugins that are not installed: ${missing.join(", ")}`,
    );
  }
  if (unsatisfied.length) {
    throw new CortexError(
      "dependency_unsatisfied",
      `${manifest.name} needs versions that are not installed: ${unsatisfied.join(", ")}`,
    );
  }
}

/**
 * Orders plugins so that each comes after the plugins it depends on; ties
 * by name. Plugins in a cycle are returned in `cyclic`, not ordered.
 */
export function dependencyOrder(
  plugins: readonly { name: string; dependencies: readonly string[] }[],
): { ordered: string[]; cyclic: string[] } {
  const deps = new Map(plugins.map((p) => [p.name, p.dependencies.filter((d) => d !== p.name)]));
  const ordered: string[] = [];
  const done = new Set<string>();
  const visiting = new Set<string>();
  const cyclic = new Set<string>();
  const visit = (name: string): boolean => {
    if (done.has(name)) return true;
    if (visiting.has(name)) return false;
    visiting.add(name);
    let ok = true;
    for (const dep of deps.get(name) ?? []) {
      if (deps.has(dep) && !visit(dep)) ok = false;
    }
    visiting.delete(name);
    if (!ok) {
      cyclic.add(name);
      return false;
    }
    done.add(name);
    ordered.push(name);
    return true;
  };
  for (const name of [...deps.keys()].sort()) visit(name);
  return { ordered, cyclic: [...cyclic].sort() };
}
