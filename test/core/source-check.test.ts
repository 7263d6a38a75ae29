import { describe, expect, it } from "vitest";
import { sourceChecker, type SourceRules } from "../../src/core/source-check";

const NOTES = new Set(["notes/a.md", "notes/Prive\u0301.md", "Private/Salary review.md", "wiki/index.md", "notes/link.md"]);

function rules(overrides: Partial<SourceRules> = {}): SourceRules {
  return {
    excludedFolders: ["Private"],
    bookkeeping: new Set(["wiki/index.md", "wiki/log.md"]),
    exists: (path) => Promise.resolve(NOTES.has(path)),
    ...overrides,
  };
}

describe("cited sources are notes of the vault a provider may read", () => {
  it.each([
    ["notes/a.md"],
    ["[[notes/a]]"],
    ["[[notes/a|A]]"],
    ["./notes/a.md"],
    ["/notes/a.md"],
    ["notes\\a.md"],
    ["notes/Priv\u00e9.md"], // stored decomposed, cited composed
  ])("accepts %j", async (source) => {
    expect(await sourceChecker(rules())([source])).toEqual([]);
  });

  it.each([
    ["../outside/canary.md", "outside"],
    ["notes/../../outside.md", "outside"],
    ["[[../outside/canary]]", "outside"],
    ["C:\\Users\\me\\secret.md", "outside"],
    ["file:///etc/passwd", "outside"],
    ["https://example.org/a.md", "outside"],
    ["~/notes/a.md", "outside"],
    ["\\\\server\\share\\a.md", "outside"],
    ["/etc/passwd", "outside"],
    ["etc/passwd", "missing"],
    ["notes/missing.md", "missing"],
    ["", "missing"],
    ["Private/Salary review.md", "excluded"],
    ["private/salary review.md", "excluded"],
    ["[[Private/Salary review]]", "excluded"],
    ["wiki/index.md", "bookkeeping"],
    [".obsidian/plugins/synapse/state/journal.json", "bookkeeping"],
    ["notes/.hidden.md", "bookkeeping"],
  ])("refuses %j as %s", async (source, problem) => {
    expect(await sourceChecker(rules())([source])).toEqual([{ source, problem }]);
  });

  it("refuses a note whose link leads into an excluded folder", async () => {
    const check = sourceChecker(rules({ realPath: (path) => Promise.resolve(path === "notes/link.md" ? "Private/Salary review.md" : path) }));
    expect(await check(["notes/link.md"])).toEqual([{ source: "notes/link.md", problem: "excluded" }]);
  });

  it("refuses a note the vault cannot look at (a link out of it) instead of failing the run", async () => {
    const check = sourceChecker(rules({ exists: () => Promise.reject(new Error("outside the vault")) }));
    expect(await check(["notes/a.md"])).toEqual([{ source: "notes/a.md", problem: "outside" }]);
  });

  it("accepts the ingested note in any spelling without asking the vault, and asks once per citation", async () => {
    const asked: string[] = [];
    const check = sourceChecker(rules({ admitted: ["notes/Source note.md"], exists: (path) => (asked.push(path), Promise.resolve(NOTES.has(path))) }));
    expect(await check(["[[notes/Source note]]", "notes/a.md"])).toEqual([]);
    expect(await check(["notes/a.md"])).toEqual([]);
    expect(asked).toEqual(["notes/a.md"]);
  });
});
