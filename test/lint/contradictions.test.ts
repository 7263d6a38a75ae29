import { describe, expect, it } from "vitest";
import type { WikiPage } from "../../src/core/schemas";
import { runLint, type LintDeps } from "../../src/lint/run-lint";
import { dismissContradiction, resolveContradiction } from "../../src/lint/settle-contradiction";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import type { WriteContext } from "../../src/write/apply";
import { readContradictions } from "../../src/wiki/contradictions";
import { recordContradictions } from "../helpers/record-contradictions";
import { ingestNote } from "../../src/wiki/ingest-note";
import { undoLastRun } from "../../src/write/undo";
import { readHistory } from "../../src/write/run-history";
import { splitFrontmatter } from "../../src/core/markdown";
import { isUnedited, parseBody } from "../../src/wiki/provenance";
import { ScriptedProvider, aPage } from "../builders";

const NOW = () => Date.UTC(2026, 10, 30, 12, 0);
const A = "notes/A.md";
const B = "notes/B.md";
const PAGE = "wiki/concepts/Golden Gate Bridge.md";
const SAYS_A = "The bridge opened to traffic in 1937 after four years.";
const SAYS_B = "The bridge opened to traffic in 1938 after four years.";

const from = (source: string, content: string): WikiPage => ({ ...aPage().titled("Golden Gate Bridge").withSources(source).withContent(content).build() });

async function files(vault: MemoryVault): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of await vault.list("")) out[path] = await vault.read(path);
  return out;
}

/** Two notes ingested for real, the second contradicting the first: the record holds one open contradiction. */
async function wikiWithContradiction() {
  const vault = new MemoryVault({ [A]: "# A\n\nA note.\n", [B]: "# B\n\nAnother note.\n" });
  const store = new MemoryStateStore();
  const write: WriteContext = { store, writer: { kind: "cli", pid: null, host: null } };
  const ingest = (note: string, content: string) => ingestNote({ vault, write, provider: new ScriptedProvider([[from(note, content)]]), settings: DEFAULT_SETTINGS, now: NOW }, { notePath: note, force: true });
  await ingest(A, SAYS_A);
  await ingest(B, SAYS_B);
  const deps: LintDeps = { vault, settings: DEFAULT_SETTINGS, store, write, now: NOW };
  return { vault, store, write, deps };
}

const contradictionsIn = async (deps: LintDeps) => (await runLint(deps)).findings.filter((f) => f.check === "contradiction");

describe("contradictions in lint", () => {
  it("lists an open contradiction found at ingest, quoting both passages and naming both sources", async () => {
    const { deps } = await wikiWithContradiction();
    const [finding, ...rest] = await contradictionsIn(deps);
    expect(rest).toEqual([]);
    expect(finding?.page).toBe(PAGE);
    expect(finding?.message).toContain(SAYS_A);
    expect(finding?.message).toContain(SAYS_B);
    expect(finding?.message).toMatch(/^B says .+ but A says /);
    // The record id is for the CLI's --resolve and --dismiss; a person reads the sources and passages.
    expect(finding?.message).not.toMatch(/c-[0-9a-f]{4}/);
    expect(finding?.fixes.map((f) => `${f.kind} ${f.kind === "resolve-contradiction" ? f.params.keep : ""}`.trim())).toEqual(["resolve-contradiction 1", "resolve-contradiction 2", "dismiss-contradiction"]);
  });

  it("resolving keeps one side: the other passage and the callout leave the page, the record is resolved, and undo restores every byte", async () => {
    const { vault, store, write, deps } = await wikiWithContradiction();
    const before = await files(vault);
    const [record] = await readContradictions(store);
    const settled = await resolveContradiction(deps, record?.id ?? "", "notes/A.md");
    expect(settled.changed).toEqual([PAGE]);
    expect(settled.contradiction).toMatchObject({ status: "resolved", resolution: "kept notes/A.md" });
    const page = await vault.read(PAGE);
    expect(page).toContain(SAYS_A);
    expect(page).not.toContain(SAYS_B);
    expect(page).not.toContain("[!warning] Contradiction");
    expect(await contradictionsIn(deps)).toEqual([]);
    expect(await vault.read("wiki/log.md")).toMatch(/lint \| resolve contradiction c-/);

    await undoLastRun(vault, write, { wikiFolder: "wiki", now: NOW });
    const restored = await files(vault);
    delete restored["wiki/log.md"];
    delete before["wiki/log.md"];
    expect(restored).toEqual(before);
  });

  it("undoing the resolution opens the contradiction again: the record is back byte for byte, in the same undo", async () => {
    const { vault, store, write, deps } = await wikiWithContradiction();
    const recordBefore = await store.read("contradictions.json");
    const [record] = await readContradictions(store);
    await resolveContradiction(deps, record?.id ?? "", "2");
    expect((await readContradictions(store))[0]?.status).toBe("resolved");

    const undone = await undoLastRun(vault, write, { wikiFolder: "wiki", now: NOW });
    expect(undone?.run.label).toMatch(/^resolve contradiction c-/);
    expect(await store.read("contradictions.json")).toBe(recordBefore);
    expect(await contradictionsIn(deps)).toHaveLength(1);
    // One undo was enough: the next one reverts the second ingest, not a leftover of the lint run.
    expect((await undoLastRun(vault, write, { wikiFolder: "wiki", now: NOW }))?.run.operation).toBe("ingest");
  });

  it("undo keeps contradictions recorded after the resolution, and puts back only the one it resolved", async () => {
    const { vault, store, write, deps } = await wikiWithContradiction();
    const [record] = await readContradictions(store);
    await resolveContradiction(deps, record?.id ?? "", "1");
    const later = { page: PAGE, sources: [A, B] as const, passages: ["Its towers rise 227 m above the water today.", "Its towers rise 230 m above the water today."] as const };
    await recordContradictions(store, [later], "2026-12-01");

    await undoLastRun(vault, write, { wikiFolder: "wiki", now: NOW });
    const after = await readContradictions(store);
    expect(after.map((r) => r.status)).toEqual(["open", "open"]);
    expect(after[0]).toEqual(record);
    expect(after[1]?.passages).toEqual([...later.passages]);
  });

  it("a review that declines every edit resolves nothing: the contradiction stays open and nothing is written", async () => {
    const { vault, store, deps } = await wikiWithContradiction();
    const before = await files(vault);
    const [record] = await readContradictions(store);
    const settled = await resolveContradiction(deps, record?.id ?? "", "1", () => Promise.resolve([]));
    expect(settled).toEqual({ contradiction: record, changed: [] });
    expect(await files(vault)).toEqual(before);
    expect(await contradictionsIn(deps)).toHaveLength(1);
  });

  it("a resolution keeps Synapse's sections Synapse's, so a later revision from the same note still reaches them", async () => {
    const { vault, store, write, deps } = await wikiWithContradiction();
    const [record] = await readContradictions(store);
    const owned = (text: string) => parseBody(splitFrontmatter(text).body).filter((s) => s.kind === "section").map((s) => s.kind === "section" && isUnedited(s));
    expect(owned(await vault.read(PAGE))).toEqual([true, true]);
    await resolveContradiction(deps, record?.id ?? "", A);
    expect(await vault.read(PAGE)).not.toContain(SAYS_B);
    expect(owned(await vault.read(PAGE))).toEqual([true, true]);

    // B's note is revised: its section is Synapse's, so it is revised in place, not left as the user's.
    const revised = "The bridge is painted International Orange.";
    await ingestNote({ vault, write, provider: new ScriptedProvider([[from(B, revised)]]), settings: DEFAULT_SETTINGS, now: NOW }, { notePath: B, force: true });
    const page = await vault.read(PAGE);
    expect(page).toContain(revised);
    expect(page).toContain(SAYS_A);
    expect(owned(page)).toEqual([true, true]);
  });

  it("a section the user had edited stays the user's after a resolution", async () => {
    const { vault, store, deps } = await wikiWithContradiction();
    const [record] = await readContradictions(store);
    await vault.process(PAGE, (text) => text.replace(SAYS_A, `${SAYS_A} My own remark.`));
    await resolveContradiction(deps, record?.id ?? "", B);
    const sections = parseBody(splitFrontmatter(await vault.read(PAGE)).body).filter((s) => s.kind === "section");
    expect(sections.map((s) => s.kind === "section" && isUnedited(s))).toEqual([false, true]);
  });

  it("a dismissed contradiction stays dismissed when found again, and comes back only when a passage changes", async () => {
    const { store, deps } = await wikiWithContradiction();
    const [record] = await readContradictions(store);
    if (!record) throw new Error("no record");
    await dismissContradiction(deps, record.id);
    expect(await contradictionsIn(deps)).toEqual([]);

    const again = { page: PAGE, sources: [B, A] as const, passages: [SAYS_B, SAYS_A] as const };
    await recordContradictions(store, [again], "2026-12-01");
    expect(await contradictionsIn(deps)).toEqual([]);

    const changed = { ...again, passages: ["The bridge opened to traffic in 1939 after four years.", SAYS_A] as const };
    await recordContradictions(store, [changed], "2026-12-01");
    const raised = await contradictionsIn(deps);
    expect(raised).toHaveLength(1);
    expect(raised[0]?.message).toContain("1939");
  });

  it("dismissing is a run: logged, in the history, and undone like one — the contradiction is open again, the record back byte for byte", async () => {
    const { vault, store, write, deps } = await wikiWithContradiction();
    const recordBefore = await store.read("contradictions.json");
    const pagesBefore = await files(vault);
    const [record] = await readContradictions(store);
    const settled = await dismissContradiction(deps, record?.id ?? "");
    expect(settled).toMatchObject({ contradiction: { status: "dismissed", resolution: "dismissed by the user" }, changed: [] });
    expect(await contradictionsIn(deps)).toEqual([]);
    expect(await vault.read("wiki/log.md")).toMatch(new RegExp(`## \\[2026-11-30\\] lint \\| dismiss contradiction ${record?.id ?? ""}\n`));
    const { runs } = await readHistory(store);
    expect(runs[0]).toMatchObject({ operation: "lint", label: `dismiss contradiction ${record?.id ?? ""}` });

    const undone = await undoLastRun(vault, write, { wikiFolder: "wiki", now: NOW });
    expect(undone?.run.label).toBe(`dismiss contradiction ${record?.id ?? ""}`);
    expect(await store.read("contradictions.json")).toBe(recordBefore);
    expect(await contradictionsIn(deps)).toHaveLength(1);
    const after = await files(vault);
    delete after["wiki/log.md"];
    delete pagesBefore["wiki/log.md"];
    expect(after).toEqual(pagesBefore);
    // One undo was enough: the next one reverts the second ingest.
    expect((await undoLastRun(vault, write, { wikiFolder: "wiki", now: NOW }))?.run.operation).toBe("ingest");
  });

  it("an ingest records its contradictions in its own run: undoing the ingest takes them out of the record", async () => {
    const vault = new MemoryVault({ [A]: "# A\n\nA note.\n", [B]: "# B\n\nAnother note.\n" });
    const store = new MemoryStateStore();
    const write: WriteContext = { store, writer: { kind: "cli", pid: null, host: null } };
    const ingest = (note: string, content: string) => ingestNote({ vault, write, provider: new ScriptedProvider([[from(note, content)]]), settings: DEFAULT_SETTINGS, now: NOW }, { notePath: note, force: true });
    await ingest(A, SAYS_A);
    const recordBefore = await store.read("contradictions.json");
    const report = await ingest(B, SAYS_B);
    expect(report.contradictions).toHaveLength(1);
    expect(await readContradictions(store)).toHaveLength(1);
    const { runs } = await readHistory(store);
    expect(runs[0]?.state?.map((s) => s.key)).toContain("contradictions.json");

    await undoLastRun(vault, write, { wikiFolder: "wiki", now: NOW });
    expect(await store.read("contradictions.json")).toBe(recordBefore);
    const deps: LintDeps = { vault, settings: DEFAULT_SETTINGS, store, write, now: NOW };
    expect(await contradictionsIn(deps)).toEqual([]);
  });

  it("an ingest with a damaged record still writes its pages, and says the record was left as it is", async () => {
    const vault = new MemoryVault({ [A]: "# A\n\nA note.\n", [B]: "# B\n\nAnother note.\n" });
    const store = new MemoryStateStore();
    const write: WriteContext = { store, writer: { kind: "cli", pid: null, host: null } };
    const ingest = (note: string, content: string) => ingestNote({ vault, write, provider: new ScriptedProvider([[from(note, content)]]), settings: DEFAULT_SETTINGS, now: NOW }, { notePath: note, force: true });
    await ingest(A, SAYS_A);
    await store.write("contradictions.json", "{ damaged");
    const report = await ingest(B, SAYS_B);
    expect(report.error).toBeNull();
    expect(report.issues).toContain("Synapse's record of contradictions (contradictions.json) is damaged; it was left as it is.");
    expect(await vault.read(PAGE)).toContain("[!warning] Contradiction");
    expect(await store.read("contradictions.json")).toBe("{ damaged");
  });

  it("refuses an unknown id, a settled one, and a side that is not one of the two, each in one sentence", async () => {
    const { store, deps } = await wikiWithContradiction();
    const [record] = await readContradictions(store);
    const id = record?.id ?? "";
    await expect(resolveContradiction(deps, "c-nope", "1")).rejects.toThrow(/^No recorded contradiction has the id "c-nope"/);
    await expect(resolveContradiction(deps, id, "notes/C.md")).rejects.toMatchObject({ kind: "input", message: expect.stringMatching(/--keep takes 1, 2 or one of the sources/) as unknown });
    await dismissContradiction(deps, id);
    await expect(dismissContradiction(deps, id)).rejects.toThrow(/is already dismissed\.$/);
  });

  it("a damaged record is a finding, not a failed lint", async () => {
    const { store, deps } = await wikiWithContradiction();
    await store.write("contradictions.json", "{ not json");
    const report = await runLint(deps);
    expect(report.error).toBeNull();
    expect(report.findings.find((f) => f.check === "contradiction")?.message).toMatch(/is damaged/);
  });
});
