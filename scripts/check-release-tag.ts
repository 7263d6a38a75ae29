// The release workflow's first step: `tsx scripts/check-release-tag.ts <tag>` exits 1, saying why,
// when the tag is not the manifest's version (or package.json disagrees), so nothing is released.
import { readFileSync } from "node:fs";
import { releaseTagProblem } from "./release/version-files";

const root = new URL("..", import.meta.url);
const read = (file: string): string => readFileSync(new URL(file, root), "utf8");
const tag = process.argv[2] ?? "";
try {
  const problem = releaseTagProblem(tag, read("manifest.json"), read("package.json"));
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
  console.log(`Releasing ${tag}.`);
} catch (error) {
  console.error(`check-release-tag: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
