/**
 * `synapse lint --json` without --model-checks reports the pages that say the same thing in other
 * words — the same pairs the plugin's "Check wiki health" reports for the same wiki
 * (test/obsidian/lint-duplicates.test.ts holds the plugin to the same list) — with no index built.
 */
import { describe, expect, it } from "vitest";
import { SIMILAR_PAIRS, SIMILAR_WIKI } from "../lint/similar-wiki";
import { runCli } from "../helpers/run-cli";
import { makeVault, snapshot } from "../helpers/temp-vault";

interface LintJson {
  findings: { check: string; page: string; message: string; fixes: { kind: string; label: string }[] }[];
  error: unknown;
}

describe("synapse lint: duplicates by similarity (built CLI)", () => {
  it("reports exactly the planted pairs, and writes nothing (no index is built)", async () => {
    const vault = makeVault(SIMILAR_WIKI);
    const before = snapshot(vault);
    const run = await runCli(["lint", "--vault", vault, "--json"]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as LintJson;
    expect(report.error).toBeNull();
    const pairs = report.findings.filter((f) => f.check === "duplicate" && f.message.includes("alike in their words")).map((f) => `${f.page} ← ${f.fixes[0]?.label.replace(/^Merge (.+) into this page$/, "$1") ?? ""}`).sort();
    // The fix names the page it takes in by its title.
    expect(pairs).toEqual(SIMILAR_PAIRS.map((pair) => pair.replace(/← .*\/(.+)\.md$/, '← "$1"')));
    expect(snapshot(vault)).toEqual(before);
  });
});
