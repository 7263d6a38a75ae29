// The npm `version` script: after `npm version patch|minor|major|x.y.z` has bumped package.json,
// write the same version into manifest.json and list it in versions.json (then npm commits all three).
// minAppVersion is raised by hand in manifest.json before bumping, when a release needs a newer app.
import { readFileSync, writeFileSync } from "node:fs";
import { bumpVersionFiles } from "./release/version-files";

const root = new URL("..", import.meta.url);
const read = (file: string): string => readFileSync(new URL(file, root), "utf8");
const { version } = JSON.parse(read("package.json")) as { version: string };
try {
  const next = bumpVersionFiles({ manifest: read("manifest.json"), versions: read("versions.json") }, version);
  writeFileSync(new URL("manifest.json", root), next.manifest);
  writeFileSync(new URL("versions.json", root), next.versions);
  console.log(`manifest.json and versions.json now at ${version}.`);
} catch (error) {
  console.error(`version-bump: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
