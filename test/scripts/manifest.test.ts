// The community directory's rules for manifest.json, and the release files kept in step with it
// (scripts/version-bump.ts, .github/workflows/release.yml).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isPlainVersion } from "../../scripts/release/version-files";

const read = (file: string): unknown => JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), "utf8"));
const manifest = read("manifest.json") as Record<string, unknown>;
const versions = read("versions.json") as Record<string, string>;
const pkg = read("package.json") as { version: string };

describe("manifest.json", () => {
  it("has a description for the directory: no 'Obsidian', a full sentence, at most 250 characters", () => {
    const description = String(manifest.description);
    expect(description).not.toMatch(/obsidian/i);
    expect(description).toMatch(/\.$/);
    expect(description.length).toBeLessThanOrEqual(250);
  });

  it("has an id without 'obsidian' or 'plugin', in lower case", () => {
    expect(manifest.id).toMatch(/^[a-z0-9-]+$/);
    expect(String(manifest.id)).not.toMatch(/obsidian|plugin/);
  });

  it("carries the package's version, plain x.y.z, listed in versions.json with its minAppVersion", () => {
    expect(manifest.version).toBe(pkg.version);
    expect(isPlainVersion(String(manifest.version))).toBe(true);
    expect(versions[String(manifest.version)]).toBe(manifest.minAppVersion);
  });
});
