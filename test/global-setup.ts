// Builds the CLI once before the Node tests, so end-to-end tests always run the current code; says
// in one line when the suites that need the large corpus are skipped (test/helpers/corpus.ts).
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { corpusNotice } from "./helpers/corpus";

export default function setup(): void {
  // Writers built in the test processes name a test device, never the user's config folder (the
  // workers inherit this environment; spawned CLIs get theirs from run-cli.ts).
  if (!process.env.SYNAPSE_DEVICE_ID_FILE) {
    const file = join(mkdtempSync(join(tmpdir(), "synapse-device-")), "device-id");
    writeFileSync(file, "test-device-0002\n");
    process.env.SYNAPSE_DEVICE_ID_FILE = file;
  }
  execFileSync(process.execPath, ["esbuild.config.mjs", "--cli"], { stdio: "pipe" });
  const notice = corpusNotice("the tests that need the large corpus (describeWithCorpus, itWithCorpus in test/helpers/with-corpus.ts)");
  if (notice) console.log(notice);
}
