/**
 * Suites and tests that need the large corpus (corpus.ts): skipped, not failed, where it is absent;
 * the test run says so in one line (test/global-setup.ts).
 */
import { describe, it } from "vitest";
import { HAS_CORPUS } from "./corpus";

/**
 * A suite that runs only where the corpus is. Where it is absent its body is not even collected:
 * vitest runs a skipped suite's body to list its tests, and these read the corpus as they are set up.
 */
export function describeWithCorpus(name: string, suite: () => void): void {
  describe.runIf(HAS_CORPUS)(name, HAS_CORPUS ? suite : () => undefined);
}

/** `it`, run only where the corpus is. */
export const itWithCorpus = it.runIf(HAS_CORPUS);
