// Builds the CLI once before the Node tests, so end-to-end tests always run the current code; says
// in one line when the suites that need the large corpus are skipped (test/helpers/corpus.ts).
import { execFileSync } from "node:child_process";
import { corpusNotice } from "./helpers/corpus";

export default function setup(): void {
  execFileSync(process.execPath, ["esbuild.config.mjs", "--cli"], { stdio: "pipe" });
  const notice = corpusNotice("the tests that need the large corpus (describeWithCorpus, itWithCorpus in test/helpers/with-corpus.ts)");
  if (notice) console.log(notice);
}
