import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli";
import { makeVault, readVaultFile } from "../helpers/temp-vault";

const ADA = "notes/Ada Lovelace.md";
const ADA_TEXT = "# Ada Lovelace\n\nAda Lovelace wrote the first program for the [[Analytical Engine]] of Charles Babbage. Charles Babbage designed it.\n";
const SECRET = "private/Diary.md";

async function wiki(): Promise<string> {
  const vault = makeVault({
    [ADA]: ADA_TEXT,
    [SECRET]: "# Diary\n\nThe Analytical Engine keeps me awake.\n",
    ".obsidian/plugins/synapse/data.json": JSON.stringify({ excludedFolders: ["private"] }),
  });
  expect((await runCli(["ingest", ADA, "--vault", vault, "--provider", "offline", "--json"])).code).toBe(0);
  return vault;
}

interface QueryJson {
  answer: string;
  citations: { page: string; path: string | null; verified: boolean; problem: string | null; reason: string | null }[];
  warning: string | null;
  saved: string | null;
  usage: { inputTokens: number; outputTokens: number; costUsd: number | null };
  provider: { name: string; mode: string; isLocal: boolean };
  error: { kind: string; message: string } | null;
}

describe("synapse query (built CLI, Offline provider, the vault's real index)", () => {
  it("answers from the wiki with verified citations, in the documented JSON, and saves the answer as an undoable page", async () => {
    const vault = await wiki();
    const run = await runCli(["query", "Who designed the Analytical Engine?", "--vault", vault, "--provider", "offline", "--scope", "wiki", "--save", "--json"]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as QueryJson;
    expect(Object.keys(report)).toEqual(["answer", "citations", "warning", "saved", "usage", "provider", "error"]);
    expect(report.warning).toBeNull();
    expect(report.error).toBeNull();
    expect(report.answer).toContain("Analytical Engine");
    expect(report.citations.length).toBeGreaterThan(0);
    expect(report.citations.every((c) => c.verified)).toBe(true);
    expect(report.saved).toBe("wiki/syntheses/Who designed the Analytical Engine.md");
    expect(readVaultFile(vault, report.saved ?? "")).toMatch(/^---\ntype: synthesis\n/);
    expect(readVaultFile(vault, "wiki/log.md")).toContain("] query | Who designed the Analytical Engine?");
    expect((await runCli(["undo", "--vault", vault])).code).toBe(0);
    expect(existsSync(join(vault, report.saved ?? ""))).toBe(false);
  });

  it("streams the answer to stdout and the citations to stderr", async () => {
    const vault = await wiki();
    const run = await runCli(["query", "Who designed the Analytical Engine?", "--vault", vault, "--provider", "offline"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("> ");
    expect(run.stderr).toMatch(/✓ .+\(wiki\//);
  });

  it("says 'not in your wiki' when nothing matches, and never quotes an excluded folder", async () => {
    const vault = await wiki();
    const run = await runCli(["query", "What is the boiling point of nitrogen?", "--vault", vault, "--provider", "offline", "--json"]);
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as QueryJson).answer).toMatch(/^Not in your wiki/);
    const all = await runCli(["query", "What keeps me awake?", "--vault", vault, "--provider", "offline", "--scope", "all", "--json"]);
    expect(all.stdout).not.toContain("keeps me awake");
  });

  it("refuses an empty question, and a scope that names no folder, with exit 2", async () => {
    const vault = await wiki();
    const empty = await runCli(["query", "  ", "--vault", vault, "--provider", "offline", "--json"]);
    expect(empty.code).toBe(2);
    expect((JSON.parse(empty.stdout) as QueryJson).error?.message).toMatch(/question is empty/);
    const scope = await runCli(["query", "Engine?", "--vault", vault, "--scope", "Nowhere"]);
    expect(scope.code).toBe(2);
    expect(scope.stderr).toMatch(/names no folder/);
  });
});

describe("synapse lint (built CLI)", () => {
  it("reports findings in the documented JSON with exit 1, fixes the safe ones, and undoes the fixes in one step", async () => {
    const vault = await wiki();
    const before = readVaultFile(vault, "wiki/index.md");
    const run = await runCli(["lint", "--vault", vault, "--json"]);
    const report = JSON.parse(run.stdout) as { findings: { check: string; fixes: { safe: boolean }[] }[]; counts: Record<string, number>; fixed: unknown[]; error: unknown };
    expect(Object.keys(report)).toEqual(["findings", "counts", "fixed", "usage", "error"]);
    expect(run.code).toBe(report.findings.length > 0 ? 1 : 0);
    const fix = await runCli(["lint", "--vault", vault, "--fix", "safe", "--json"]);
    const fixed = JSON.parse(fix.stdout) as { findings: { fixes: { safe: boolean }[] }[]; fixed: unknown[] };
    expect(fixed.findings.filter((f) => f.fixes.some((x) => x.safe))).toEqual([]);
    if (fixed.fixed.length > 0) {
      expect((await runCli(["undo", "--vault", vault])).code).toBe(0);
      expect(readVaultFile(vault, "wiki/index.md")).toBe(before);
    }
    expect((await runCli(["lint", "--vault", vault, "--fix", "some"])).code).toBe(2);
  });
});
