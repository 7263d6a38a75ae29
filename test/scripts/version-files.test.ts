import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bumpVersionFiles, isPlainVersion, releaseTagProblem } from "../../scripts/release/version-files";

const manifest = `{
  "id": "synapse",
  "name": "Synapse",
  "version": "0.1.0",
  "minAppVersion": "1.11.4",
  "description": "Keeps a wiki.",
  "isDesktopOnly": false
}
`;
const versions = `{ "0.1.0": "1.11.4" }`;

describe("bumpVersionFiles", () => {
  it("sets the manifest's version and keeps every other field in its order", () => {
    const next = bumpVersionFiles({ manifest, versions }, "0.2.0");
    const parsed = JSON.parse(next.manifest) as Record<string, unknown>;
    expect(parsed).toEqual({ ...(JSON.parse(manifest) as object), version: "0.2.0" });
    expect(Object.keys(parsed)).toEqual(["id", "name", "version", "minAppVersion", "description", "isDesktopOnly"]);
  });

  it("maps the new version to the manifest's minAppVersion and keeps the earlier releases", () => {
    const raised = manifest.replace('"1.11.4"', '"1.12.0"');
    const next = bumpVersionFiles({ manifest: raised, versions }, "1.0.0");
    expect(JSON.parse(next.versions)).toEqual({ "0.1.0": "1.11.4", "1.0.0": "1.12.0" });
  });

  it("writes two-space JSON ending in a newline", () => {
    const next = bumpVersionFiles({ manifest, versions }, "0.1.1");
    expect(next.versions).toBe('{\n  "0.1.0": "1.11.4",\n  "0.1.1": "1.11.4"\n}\n');
    expect(next.manifest.endsWith("}\n")).toBe(true);
  });

  it("is idempotent: bumping to the same version twice gives the same files", () => {
    const once = bumpVersionFiles({ manifest, versions }, "0.3.0");
    expect(bumpVersionFiles(once, "0.3.0")).toEqual(once);
  });

  it.each(["v1.0.0", "1.0", "1.0.0-beta.1", "01.0.0", " 1.0.0", ""])("refuses %j, which is not a plain x.y.z version", (bad) => {
    expect(() => bumpVersionFiles({ manifest, versions }, bad)).toThrow(/plain x\.y\.z/);
  });

  it("refuses a versions.json that is not JSON, naming the file", () => {
    expect(() => bumpVersionFiles({ manifest, versions: "{" }, "0.2.0")).toThrow(/versions\.json is not valid JSON/);
  });

  it("refuses a manifest without a minAppVersion, naming the field", () => {
    const noMin = JSON.stringify({ id: "synapse", version: "0.1.0" });
    expect(() => bumpVersionFiles({ manifest: noMin, versions }, "0.2.0")).toThrow(/manifest\.json .*minAppVersion/);
  });

  it("for any plain version, the manifest says it and versions.json maps it to minAppVersion", () => {
    const part = fc.nat({ max: 10_000 });
    fc.assert(
      fc.property(part, part, part, (a, b, c) => {
        const version = `${a}.${b}.${c}`;
        const next = bumpVersionFiles({ manifest, versions }, version);
        expect((JSON.parse(next.manifest) as { version: string }).version).toBe(version);
        expect((JSON.parse(next.versions) as Record<string, string>)[version]).toBe("1.11.4");
      }),
    );
  });
});

describe("releaseTagProblem", () => {
  const pkg = (version: string) => JSON.stringify({ name: "synapse", version });

  it("accepts a tag equal to the manifest's version when package.json agrees", () => {
    expect(releaseTagProblem("0.1.0", manifest, pkg("0.1.0"))).toBeNull();
  });

  it("refuses a tag with a v, saying which tag to push", () => {
    expect(releaseTagProblem("v0.1.0", manifest, pkg("0.1.0"))).toMatch(/tag the release exactly 0\.1\.0/);
  });

  it("refuses a tag for another version", () => {
    expect(releaseTagProblem("0.2.0", manifest, pkg("0.1.0"))).toMatch(/not the manifest's version "0\.1\.0"/);
  });

  it("refuses when package.json and the manifest disagree", () => {
    expect(releaseTagProblem("0.1.0", manifest, pkg("0.2.0"))).toMatch(/package\.json says 0\.2\.0/);
  });
});

it("knows a plain version", () => {
  expect(isPlainVersion("10.0.3")).toBe(true);
  expect(isPlainVersion("1.0.0.0")).toBe(false);
});
