/**
 * Ingest with the vault index as its catalogue (retriever + WikiCatalog): nothing lists the vault
 * or reads every page, yet an existing page is still found by its file name, a user's note still
 * keeps its name, and what the run wrote is in the index for the next run.
 */
import { describe, expect, it } from "vitest";
import { indexCatalog } from "../../src/retrieval/catalog";
import { syncIndex } from "../../src/retrieval/sync";
import { VaultIndex } from "../../src/retrieval/vault-index";
import { readFrontmatter } from "../../src/retrieval/chunker";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { ingestNote } from "../../src/wiki/ingest-note";
import { aPage, ScriptedProvider, SOURCE_PATH } from "../builders";

/** A vault whose listing can be switched off, so a test can prove an ingest never asks for one. */
class UnlistableVault extends MemoryVault {
  listable = true;
  reads = 0;
  override list(folder: string): Promise<string[]> {
    if (!this.listable) throw new Error(`listed "${folder}"`);
    return super.list(folder);
  }
  override read(path: string): Promise<string> {
    this.reads += 1;
    return super.read(path);
  }
}

const wikiPage = (title: string, body: string) => `---\ntype: concept\ntitle: ${title}\nsynapse_id: sy-${title.length}abc\nsources:\n  - notes/Other.md\nlang: en\n---\n${body}\n`;

async function indexed(files: Record<string, string>) {
  const vault = new UnlistableVault(files);
  const store = new MemoryStateStore();
  const index = await VaultIndex.open({ frontmatter: readFrontmatter, store, reader: vault, wikiFolder: "wiki", excludedFolders: [] });
  await syncIndex(index, vault);
  vault.listable = false;
  vault.reads = 0;
  let flushes = 0;
  const catalog = indexCatalog(index, vault, { changed: async () => void (flushes += (await index.flush()).shardsWritten) });
  return { vault, index, catalog, flushed: () => flushes };
}

const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`wiki/concepts/Filler ${i}.md`, wikiPage(`Filler ${i}`, `Filler page number ${i} about pottery glazes.`)]));

describe("ingest with the index as its catalogue", () => {
  it("never lists the vault, reads only the pages it needs, and indexes what it wrote", async () => {
    const { vault, index, catalog, flushed } = await indexed({ [SOURCE_PATH]: "# Source note\n\nAbout examples of examples.\n", ...many(400) });
    const provider = new ScriptedProvider([[aPage().titled("Example concept").withContent("Examples explain [[Source note]] with hyperbolic cartography.").build()]]);

    const report = await ingestNote({ vault, provider, settings: DEFAULT_SETTINGS, retriever: index, catalog }, { notePath: SOURCE_PATH });

    expect(report.error).toBeNull();
    expect(report.pages.map((p) => `${p.action} ${p.path}`)).toEqual(["created wiki/concepts/Example concept.md"]);
    // The catalogue's count tells an empty wiki from one with pages; the number itself is not sent
    // (it changes with every ingest, and would end the prefix a prompt cache reads again).
    expect(provider.analyzeCalls[0]?.vaultContext).toContain("has pages");
    expect(provider.analyzeCalls[0]?.vaultContext).not.toMatch(/\b400\b/);
    // The note, the pages retrieval returned (at most 40, each read for its text and its sources),
    // index.md: not the 400 pages of the wiki.
    expect(vault.reads).toBeLessThan(100);
    const hits = await index.retrieve("hyperbolic cartography", { scope: { kind: "wiki" }, limit: 5 });
    expect(hits[0]?.path).toBe("wiki/concepts/Example concept.md");
    expect(catalog.pageCount()).toBe(401);
    expect(flushed()).toBeGreaterThan(0);
    // index.md and log.md are bookkeeping: never indexed, so never retrieved or counted.
    expect(index.stateOf("wiki/index.md")).toBeUndefined();
    expect(index.stateOf("wiki/log.md")).toBeUndefined();
  });

  it("updates the existing page with the new page's file name even when retrieval did not shortlist it", async () => {
    const existing = "wiki/concepts/Example concept.md";
    const { vault, index, catalog } = await indexed({
      [SOURCE_PATH]: "# Source note\n\nAbout examples.\n",
      [existing]: wikiPage("Example concept", "Nothing in common with the note: volcanic basalt columns."),
      ...many(30),
    });
    const provider = new ScriptedProvider([[aPage().titled("Example concept").build()]]);
    const report = await ingestNote({ vault, provider, settings: DEFAULT_SETTINGS, retriever: index, catalog }, { notePath: SOURCE_PATH });
    expect(report.error).toBeNull();
    expect(report.pages.map((p) => p.path)).toEqual([existing]);
    expect(report.pages[0]?.action).not.toBe("created");
  });

  it("gives a new page its typed name when a note of the user's already has the plain one (with \"page\")", async () => {
    const { vault, index, catalog } = await indexed({ [SOURCE_PATH]: "# Source note\n\nAbout examples.\n", "notes/Example concept.md": "My own note." });
    const provider = new ScriptedProvider([[aPage().titled("Example concept").build()]]);
    const report = await ingestNote({ vault, provider, settings: { ...DEFAULT_SETTINGS, userNoteCanon: "page" }, retriever: index, catalog }, { notePath: SOURCE_PATH });
    expect(report.error).toBeNull();
    expect(report.pages.map((p) => p.path)).toEqual(["wiki/concepts/Example concept (concept).md"]);
  });

  it("links to the user's note named like the page, found through the catalogue, instead of writing the page", async () => {
    const { vault, index, catalog } = await indexed({ [SOURCE_PATH]: "# Source note\n\nAbout examples.\n", "notes/Example concept.md": "My own note." });
    const provider = new ScriptedProvider([[aPage().titled("Example concept").build()]]);
    const report = await ingestNote({ vault, provider, settings: DEFAULT_SETTINGS, retriever: index, catalog }, { notePath: SOURCE_PATH });
    expect(report.error).toBeNull();
    expect(report.pages).toEqual([]);
    expect(report.linkedNotes.map((l) => l.notePath)).toEqual(["notes/Example concept.md"]);
  });

  it("a dry run neither writes nor changes the index", async () => {
    const { vault, index, catalog, flushed } = await indexed({ [SOURCE_PATH]: "# Source note\n\nAbout examples.\n" });
    const provider = new ScriptedProvider([[aPage().titled("Example concept").build()]]);
    const report = await ingestNote({ vault, provider, settings: DEFAULT_SETTINGS, retriever: index, catalog }, { notePath: SOURCE_PATH, dryRun: true });
    expect(report.pages.map((p) => p.action)).toEqual(["created"]);
    expect(index.size).toBe(1);
    expect(flushed()).toBe(0);
  });
});
