import { describe, expect, it } from "vitest";
import type { WikiPage } from "../../src/core/schemas";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { readContradictions } from "../../src/wiki/contradictions";
import { ingestNote } from "../../src/wiki/ingest-note";
import { ScriptedProvider, aPage } from "../builders";

const NOW = () => Date.UTC(2026, 10, 30, 12, 0);
const A = "notes/A.md";
const B = "notes/B.md";

function setup(files: Record<string, string> = {}) {
  const vault = new MemoryVault({ [A]: "# A\n\nA note about things.\n", [B]: "# B\n\nAnother note about things.\n", ...files });
  const state = new MemoryStateStore();
  // `force`: these tests re-ingest unchanged notes on purpose, to see what the page model does with them.
  const ingest = (note: string, pages: WikiPage[]) =>
    ingestNote(
      { vault, write: { store: state, writer: { kind: "cli", pid: null, host: null } }, provider: new ScriptedProvider([pages]), settings: DEFAULT_SETTINGS, now: NOW },
      { notePath: note, force: true },
    );
  return { vault, state, ingest };
}

const from = (source: string, title: string, content: string, extra: Partial<WikiPage> = {}): WikiPage => ({
  ...aPage().titled(title).withSources(source).withContent(content).build(),
  ...extra,
});

async function move(vault: MemoryVault, from: string, to: string, edit: (text: string) => string = (t) => t) {
  const text = await vault.read(from);
  await vault.remove(from);
  await vault.create(to, edit(text));
}

describe("the page model through ingest", () => {
  it("gives each new page a stable id and finds it again after the user renamed and moved it", async () => {
    const { vault, ingest } = setup();
    await ingest(A, [from(A, "Ada", "Ada wrote programs.")]);
    const original = await vault.read("wiki/concepts/Ada.md");
    const id = /synapse_id: (sy-[0-9a-f]{16})/.exec(original)?.[1];
    expect(id).toBeDefined();
    await move(vault, "wiki/concepts/Ada.md", "wiki/people/Ada Lovelace.md");
    const report = await ingest(A, [from(A, "Ada", "Ada wrote the first programs.")]);
    expect(report.pages).toEqual([expect.objectContaining({ path: "wiki/people/Ada Lovelace.md", action: "updated" })]);
    expect(await vault.stat("wiki/concepts/Ada.md")).toBeNull();
    const page = await vault.read("wiki/people/Ada Lovelace.md");
    expect(page).toContain(`synapse_id: ${id}`);
    expect(page).toContain("Ada wrote the first programs.");
    expect(page).not.toContain("Ada wrote programs.");
  });

  it("does not rewrite a file whose bytes would not change", async () => {
    const { vault, ingest } = setup();
    await ingest(A, [from(A, "Ada", "Ada wrote programs.")]);
    const before = await vault.stat("wiki/concepts/Ada.md");
    const report = await ingest(A, [from(A, "Ada", "Ada wrote programs.")]);
    expect(report.pages[0]?.action).toBe("unchanged");
    expect(await vault.stat("wiki/concepts/Ada.md")).toEqual(before);
  });

  it("never changes a locked page and reports what it would have added", async () => {
    const { vault, ingest } = setup();
    await ingest(A, [from(A, "Ada", "Ada wrote programs.")]);
    await move(vault, "wiki/concepts/Ada.md", "wiki/concepts/Ada.md", (t) => t.replace("type: concept", "type: concept\nsynapse: locked"));
    const before = await vault.read("wiki/concepts/Ada.md");
    const report = await ingest(B, [from(B, "Ada", "Ada met Babbage in 1833 at a party.")]);
    expect(await vault.read("wiki/concepts/Ada.md")).toBe(before);
    expect(report.pages).toEqual([]);
    expect(report.locked).toEqual([{ path: "wiki/concepts/Ada.md", title: "Ada", wouldAdd: "*From [[notes/B|Source note]]*\n\nAda met Babbage in 1833 at a party." }]);
  });

  it("makes another language's name an alias of the existing page instead of a second page", async () => {
    const { vault, ingest } = setup();
    await ingest(A, [from(A, "Vienna", "Vienna is a city on the Danube.")]);
    const report = await ingest(B, [
      from(B, "Wien", "Wien ist die Hauptstadt.", { aliases: ["Vienna"] }),
      from(B, "Donau", "Die Donau fließt durch [[Wien]]."),
    ]);
    expect(report.pages.map((p) => [p.path, p.action])).toEqual([
      ["wiki/concepts/Vienna.md", "merged"],
      ["wiki/concepts/Donau.md", "created"],
    ]);
    const vienna = await vault.read("wiki/concepts/Vienna.md");
    expect(vienna).toMatch(/^title: Vienna\naliases:\n {2}- Wien\n/m);
    expect(vienna).toContain("Vienna is a city on the Danube.");
    expect(vienna).toContain("Wien ist die Hauptstadt.");
    expect(await vault.read("wiki/concepts/Donau.md")).toContain("[[Vienna|Wien]]");
    expect(await vault.stat("wiki/concepts/Wien.md")).toBeNull();
  });

  it("shows a contradiction between two notes on the page, in the result, and in the record", async () => {
    const { vault, state, ingest } = setup();
    await ingest(A, [from(A, "Golden Gate Bridge", "The bridge opened to traffic in 1937 after four years.")]);
    const report = await ingest(B, [from(B, "Golden Gate Bridge", "The bridge opened to traffic in 1938 after four years.")]);
    const passages = ["The bridge opened to traffic in 1938 after four years.", "The bridge opened to traffic in 1937 after four years."];
    expect(report.contradictions).toEqual([{ page: "wiki/concepts/Golden Gate Bridge.md", sources: [B, A], passages }]);
    const page = await vault.read("wiki/concepts/Golden Gate Bridge.md");
    expect(page).toContain(`> [!warning] Contradiction\n> [[notes/B|B]] says: ${passages[0]}\n> [[notes/A|A]] says: ${passages[1]}`);
    // Neither claim is dropped: the page keeps both notes' words.
    expect(page).toContain(`*From [[notes/A|Source note]]*\n\n${passages[1]}`);
    expect(await readContradictions(state)).toEqual([expect.objectContaining({ pages: ["wiki/concepts/Golden Gate Bridge.md"], sources: [B, A], passages, status: "open" })]);
  });

  it("records a contradiction a model flagged, naming the source of the passage", async () => {
    const { state, ingest } = setup();
    await ingest(A, [from(A, "Pluto", "Pluto is the ninth planet.")]);
    const report = await ingest(B, [from(B, "Pluto", "Pluto is a dwarf planet.", { contradicts: [{ claim: "Pluto is a dwarf planet.", existing: "Pluto is the ninth planet." }] })]);
    expect(report.contradictions).toEqual([{ page: "wiki/concepts/Pluto.md", sources: [B, A], passages: ["Pluto is a dwarf planet.", "Pluto is the ninth planet."] }]);
    expect(await readContradictions(state)).toHaveLength(1);
  });

  it("converts a page written before provenance sections without duplicating it", async () => {
    const legacy = "---\ntype: concept\ntitle: Ada\nsources:\n  - notes/A.md\nlang: en\ntags: []\ncreated: 2026-11-01\nupdated: 2026-11-01\nsynapse_hash: 1d1e5d6ac2d1a6d5\n---\n\nOld body.\n";
    const { contentHash } = await import("../../src/core/content-hash");
    const { vault, ingest } = setup({ "wiki/concepts/Ada.md": legacy.replace("1d1e5d6ac2d1a6d5", contentHash("Old body.")) });
    const report = await ingest(A, [from(A, "Ada", "New body.")]);
    expect(report.pages[0]?.action).toBe("updated");
    const page = await vault.read("wiki/concepts/Ada.md");
    expect(page).not.toContain("Old body.");
    expect(page).not.toContain("synapse_hash");
    expect(page).toContain("created: 2026-11-01");
    expect(page).toMatch(/synapse_id: sy-[0-9a-f]{16}/);
  });
});
