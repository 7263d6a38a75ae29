/** The plan before it is written, through the built CLI: --dry-run lists it, --diff shows each change. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli";
import { makeVault, snapshot } from "../helpers/temp-vault";

const NOTE = "notes/Ada Lovelace.md";
const TEXT = "# Ada Lovelace\n\nAda Lovelace wrote the first program for the [[Analytical Engine]] of Charles Babbage. Charles Babbage designed it.\n";
const SOURCE_PAGE = "wiki/sources/Ada Lovelace (source).md";

interface JsonPage {
  path: string;
  title: string;
  action: string;
  diff?: string | null;
}

/** A vault ingested once, whose note has changed since: its source page changes, a page is new. */
async function vaultWithEditedPage(): Promise<string> {
  const vault = makeVault({ [NOTE]: TEXT });
  expect((await runCli(["ingest", NOTE, "--vault", vault])).code).toBe(0);
  writeFileSync(join(vault, NOTE), `${TEXT}\nCharles Babbage also built the [[Difference Engine]].\n`);
  return vault;
}

describe("synapse ingest --dry-run and --diff (built CLI)", () => {
  it("--dry-run lists each planned page with its action, path and title, and writes nothing", async () => {
    const vault = makeVault({ [NOTE]: TEXT });
    const before = snapshot(vault);
    const run = await runCli(["ingest", NOTE, "--vault", vault, "--dry-run"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Planned \(dry run, nothing written\) in [\d.]+ s: 3 created\./);
    expect(run.stdout).toContain('  create wiki/entities/Charles Babbage.md  "Charles Babbage" (entity)');
    expect(run.stdout).toContain('  create wiki/sources/Ada Lovelace (source).md  "Ada Lovelace" (source)');
    expect(snapshot(vault)).toEqual(before);
  });

  it("--dry-run --diff prints a unified diff of every change, created pages from /dev/null, and writes nothing", async () => {
    const vault = await vaultWithEditedPage();
    const before = snapshot(vault);
    const run = await runCli(["ingest", NOTE, "--vault", vault, "--dry-run", "--diff"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`--- a/${SOURCE_PAGE}\n+++ b/${SOURCE_PAGE}\n@@ `);
    expect(run.stdout).toMatch(/^\+.*Difference Engine/m);
    expect(run.stdout).toContain("--- /dev/null\n+++ b/wiki/entities/Difference Engine.md");
    // The diff comes first, then the plan.
    expect(run.stdout.indexOf("@@ ")).toBeLessThan(run.stdout.indexOf("Planned (dry run"));
    expect(snapshot(vault)).toEqual(before);
  });

  it("--diff without --dry-run shows the diff and then writes exactly what it showed", async () => {
    const vault = await vaultWithEditedPage();
    const dry = await runCli(["ingest", NOTE, "--vault", vault, "--dry-run", "--diff", "--json"]);
    const planned = (JSON.parse(dry.stdout) as { pages: JsonPage[] }).pages;
    const run = await runCli(["ingest", NOTE, "--vault", vault, "--diff"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`+++ b/${SOURCE_PAGE}`);
    expect(run.stdout).toMatch(/Done in [\d.]+ s: /);
    const babbage = readFileSync(join(vault, SOURCE_PAGE), "utf8");
    // Every added line of the diff is in the file now.
    const diff = planned.find((p) => p.path === SOURCE_PAGE)?.diff ?? "";
    const added = diff.split("\n").filter((l) => l.startsWith("+") && !l.startsWith("+++")).map((l) => l.slice(1));
    expect(added.length).toBeGreaterThan(0);
    for (const line of added) expect(babbage.split("\n")).toContain(line);
  });

  it("--json --diff gives each page its diff (null when it does not change); plain --json keeps the documented keys", async () => {
    const vault = await vaultWithEditedPage();
    const run = await runCli(["ingest", NOTE, "--vault", vault, "--dry-run", "--diff", "--json"]);
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split("\n")).toHaveLength(1);
    const pages = (JSON.parse(run.stdout) as { pages: JsonPage[] }).pages;
    expect(pages.map((p) => Object.keys(p))).toEqual(pages.map(() => ["path", "type", "title", "action", "diff"]));
    const byPath = new Map(pages.map((p) => [p.path, p]));
    expect(byPath.get(SOURCE_PAGE)).toMatchObject({ action: "updated", diff: expect.stringContaining(`+++ b/${SOURCE_PAGE}`) as unknown });
    expect(byPath.get("wiki/entities/Difference Engine.md")?.diff).toMatch(/^--- \/dev\/null/);
    for (const page of pages) expect(page.diff === null).toBe(page.action === "unchanged");

    const plain = JSON.parse((await runCli(["ingest", NOTE, "--vault", vault, "--dry-run", "--json"])).stdout) as { pages: JsonPage[] };
    expect(plain.pages.every((p) => !("diff" in p))).toBe(true);
  });
});
