import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli";
import { makeVault, readVaultFile, snapshot } from "../helpers/temp-vault";

const FIRST = "notes/Ada Lovelace.md";
const SECOND = "notes/Ada again.md";
const PAGE = "wiki/sources/Ada Lovelace (source).md";
const note = (year: number, extra = "") => `# Ada Lovelace\n\nAda Lovelace was born in ${year} in London. She wrote about the [[Analytical Engine]]${extra}.\n`;

interface LintJson {
  findings: { check: string; page: string; message: string; id?: string; fixes: { kind: string; safe: boolean }[] }[];
  fixed: { check: string; page: string; fix: string }[];
  error: { kind: string; message: string } | null;
}

/** Two notes ingested with the Offline provider, the second giving another year: one open contradiction. */
async function contradictoryVault(): Promise<string> {
  const vault = makeVault({ [FIRST]: note(1815), [SECOND]: note(1816) });
  for (const n of [FIRST, SECOND]) expect((await runCli(["ingest", n, "--vault", vault, "--provider", "offline", "--json"])).code).toBe(0);
  return vault;
}

async function lint(vault: string, ...flags: string[]): Promise<{ code: number | null; report: LintJson }> {
  const run = await runCli(["lint", "--vault", vault, "--json", ...flags]);
  return { code: run.code, report: JSON.parse(run.stdout) as LintJson };
}

const idOf = (report: LintJson) => report.findings.find((f) => f.check === "contradiction")?.id ?? "";

describe("synapse lint: contradictions and re-ingest (built CLI, Offline provider)", () => {
  it("lists the contradiction found at ingest, resolves it by keeping one source, and undo puts the page back", async () => {
    const vault = await contradictoryVault();
    const { code, report } = await lint(vault);
    expect(code).toBe(1);
    expect(report.findings.map((f) => `${f.check} ${f.page}`)).toEqual([`contradiction ${PAGE}`]);
    const before = readVaultFile(vault, PAGE);
    expect(before).toContain("born in 1816");

    const resolved = await runCli(["lint", "--vault", vault, "--resolve", idOf(report), "--keep", FIRST, "--json"]);
    expect(resolved.code).toBe(0);
    expect(JSON.parse(resolved.stdout)).toMatchObject({ contradiction: { status: "resolved", resolution: `kept ${FIRST}` }, changed: [PAGE], error: null });
    const after = readVaultFile(vault, PAGE);
    expect(after).toContain("born in 1815");
    expect(after).not.toContain("born in 1816");
    expect(after).not.toContain("[!warning] Contradiction");
    expect((await lint(vault)).code).toBe(0);

    expect((await runCli(["undo", "--vault", vault])).code).toBe(0);
    expect(readVaultFile(vault, PAGE)).toBe(before);
  });

  it("dismisses a contradiction for good, and says in one sentence what is wrong with a bad request", async () => {
    const vault = await contradictoryVault();
    const id = idOf((await lint(vault)).report);
    expect((await runCli(["lint", "--vault", vault, "--dismiss", id])).stdout).toMatch(/^Dismissed c-[0-9a-f]+; lint will not raise it again/);
    expect((await lint(vault)).code).toBe(0);
    // Ingesting the same note again finds the same contradiction: it stays dismissed.
    expect((await runCli(["ingest", SECOND, "--vault", vault, "--provider", "offline", "--force"])).code).toBe(0);
    expect((await lint(vault)).report.findings).toEqual([]);

    const again = await runCli(["lint", "--vault", vault, "--dismiss", id]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/is already dismissed\.\n$/);
    expect((await runCli(["lint", "--vault", vault, "--resolve", id])).code).toBe(2);
    expect((await runCli(["lint", "--vault", vault, "--resolve", id, "--keep", "1", "--fix", "safe"])).code).toBe(2);
    const unknown = await runCli(["lint", "--vault", vault, "--resolve", "c-0", "--keep", "1", "--json"]);
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stdout)).toMatchObject({ contradiction: null, changed: [], error: { kind: "input" } });
  });

  it("re-ingests a source note that changed (the stale check's safe fix), and undo restores the pages", async () => {
    const vault = makeVault({ [FIRST]: note(1815) });
    expect((await runCli(["ingest", FIRST, "--vault", vault, "--provider", "offline"])).code).toBe(0);
    const wikiBefore = Object.fromEntries(Object.entries(snapshot(vault)).filter(([p]) => p.startsWith("wiki/") && p !== "wiki/log.md"));
    writeFileSync(join(vault, FIRST), note(1815, " and [[Charles Babbage]]"));

    const { report } = await lint(vault);
    expect(report.findings.map((f) => f.check)).toEqual(["stale", "stale"]);
    expect(report.findings.every((f) => f.fixes[0]?.kind === "reingest" && f.fixes[0].safe)).toBe(true);

    const fixed = await lint(vault, "--fix", "safe");
    expect(fixed.code).toBe(0);
    expect(fixed.report.fixed.map((f) => f.fix)).toEqual(['Re-ingest "Ada Lovelace"', 'Re-ingest "Ada Lovelace"']);
    expect(readVaultFile(vault, "wiki/entities/Charles Babbage.md")).toContain("type: entity");

    expect((await runCli(["undo", "--vault", vault])).code).toBe(0);
    const wikiAfter = Object.fromEntries(Object.entries(snapshot(vault)).filter(([p]) => p.startsWith("wiki/") && p !== "wiki/log.md"));
    expect(wikiAfter).toEqual(wikiBefore);
  });
});
