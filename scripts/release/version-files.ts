/**
 * What a release changes in the files Obsidian reads: `manifest.json` carries the plugin's version,
 * `versions.json` maps each plugin version to the oldest Obsidian that runs it (Obsidian offers an
 * older release to an app too old for the newest). `npm version` bumps package.json; the `version`
 * script (scripts/version-bump.ts) brings these two files into step, and the release workflow
 * (scripts/check-release-tag.ts) refuses a tag that is not exactly that version.
 */
import * as z from "zod";
import { SynapseError } from "../../src/core/errors";

/** Obsidian compares plain `x.y.z` versions; a release tag carries no `v`. */
const PLAIN_VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

const versionSchema = z.string().regex(PLAIN_VERSION);
/** Loose: the manifest holds more (id, name, description…), kept exactly as it is. */
const manifestSchema = z.looseObject({ version: versionSchema, minAppVersion: versionSchema });
const versionsSchema = z.record(versionSchema, versionSchema);
const packageSchema = z.looseObject({ version: versionSchema });

export interface VersionFiles {
  readonly manifest: string;
  readonly versions: string;
}

/**
 * The file's value as written (`raw`, whose key order a release keeps) and as checked by `schema`
 * (`data`; a loose zod object puts its declared keys first).
 */
function parse<T>(schema: z.ZodType<T>, text: string, file: string): { readonly data: T; readonly raw: object } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new SynapseError("config", `${file} is not valid JSON.`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new SynapseError("config", `${file} does not hold plain x.y.z versions where a version belongs (${parsed.error.issues[0]?.path.join(".") || "top level"}).`);
  return { data: parsed.data, raw: raw as object };
}

export function isPlainVersion(version: string): boolean {
  return PLAIN_VERSION.test(version);
}

/** Two-space JSON with a final newline, as the repository keeps its JSON files. */
function format(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * The manifest and versions.json for `version`: the manifest's version set (every other field and
 * its order kept), and `version` mapped to the manifest's `minAppVersion`. Every release is listed,
 * not only those that raise `minAppVersion`, so the file says which app each release needs.
 */
export function bumpVersionFiles(files: VersionFiles, version: string): VersionFiles {
  if (!isPlainVersion(version)) throw new SynapseError("config", `"${version}" is not a plain x.y.z version (no "v", no suffix), which Obsidian needs.`);
  const manifest = parse(manifestSchema, files.manifest, "manifest.json");
  const versions = parse(versionsSchema, files.versions, "versions.json");
  return {
    manifest: format({ ...manifest.raw, version }),
    versions: format({ ...versions.raw, [version]: manifest.data.minAppVersion }),
  };
}

/**
 * Why a tag may not be released, or null when it may: the tag must be the manifest's version
 * exactly (Obsidian and BRAT look the release up by that name) and package.json must agree.
 */
export function releaseTagProblem(tag: string, manifestText: string, packageText: string): string | null {
  const manifest = parse(manifestSchema, manifestText, "manifest.json").data;
  const pkg = parse(packageSchema, packageText, "package.json").data;
  if (tag !== manifest.version) return `The tag "${tag}" is not the manifest's version "${manifest.version}"; tag the release exactly ${manifest.version} (no "v").`;
  if (pkg.version !== manifest.version) return `package.json says ${pkg.version} but manifest.json says ${manifest.version}; run "npm version" to bump both.`;
  return null;
}
