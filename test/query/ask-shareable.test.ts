/**
 * A wiki page drawn from a note in an excluded folder is never quoted to the model, whatever scope
 * found it: the wiki scope, a folder scope that holds the wiki (`--scope Research` with the wiki in
 * Research/wiki), or the notes scope when the disk spells the wiki folder in another case.
 * Retrieval is the real VaultIndex over a MemoryVault; the provider records what it was sent.
 */
import { describe, expect, it } from "vitest";
import { askWiki, type AskRequest } from "../../src/query/ask";
import { syncIndex } from "../../src/retrieval/sync";
import { VaultIndex } from "../../src/retrieval/vault-index";
import { readFrontmatter } from "../../src/retrieval/chunker";
import { DEFAULT_SETTINGS, type Settings } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { ChatProvider, FixedRetriever, hit } from "./fakes";

const SECRET = "Secret telescope plans with a parabolic mirror.";
const PAGE_FROM_DIARY = "---\ntype: concept\ntitle: Telescope\nsources:\n  - \"[[private/diary]]\"\n---\n\nThe secret telescope plans use a parabolic mirror.\n";
const PAGE_FROM_NOTES = "---\ntype: concept\ntitle: Mirror\nsources:\n  - Research/notes.md\n---\n\nA parabolic mirror focuses telescope light.\n";

function settings(wikiFolder: string): Settings {
  return { ...structuredClone(DEFAULT_SETTINGS), wikiFolder, excludedFolders: ["private"] };
}

async function ask(files: Record<string, string>, wikiFolder: string, request: Omit<AskRequest, "question">) {
  const vault = new MemoryVault(files);
  const retriever = await VaultIndex.open({ frontmatter: readFrontmatter, store: new MemoryStateStore(), reader: vault, wikiFolder, excludedFolders: ["private"] });
  await syncIndex(retriever, vault);
  const provider = new ChatProvider(["ok"]);
  const report = await askWiki({ vault, provider, retriever, settings: settings(wikiFolder) }, { question: "What are the telescope plans with a parabolic mirror?", ...request });
  return { report, sent: provider.calls.map((c) => c.context).join("\n") };
}

const RESEARCH = {
  "private/diary.md": SECRET,
  "Research/wiki/concepts/Telescope.md": PAGE_FROM_DIARY,
  "Research/wiki/concepts/Mirror.md": PAGE_FROM_NOTES,
  "Research/notes.md": "Telescope notes: the parabolic mirror is ground by hand.",
};

describe("asking never quotes a page drawn from an excluded note", () => {
  it("with the wiki scope", async () => {
    const { report, sent } = await ask(RESEARCH, "Research/wiki", { scope: "wiki" });
    expect(report.error).toBeNull();
    expect(report.passages.map((p) => p.path)).toEqual(["Research/wiki/concepts/Mirror.md"]);
    expect(sent).not.toMatch(/secret/i);
  });

  it("with a folder scope that holds the wiki", async () => {
    const { report, sent } = await ask(RESEARCH, "Research/wiki", { folders: ["Research"] });
    expect(report.error).toBeNull();
    const paths = report.passages.map((p) => p.path);
    expect(paths).not.toContain("Research/wiki/concepts/Telescope.md");
    expect(paths).toEqual(expect.arrayContaining(["Research/wiki/concepts/Mirror.md", "Research/notes.md"]));
    expect(sent).not.toMatch(/secret/i);
  });

  it("with a folder scope naming the wiki folder in another case", async () => {
    const { report, sent } = await ask(RESEARCH, "Research/wiki", { folders: ["research/WIKI"] });
    expect(report.passages.map((p) => p.path)).not.toContain("Research/wiki/concepts/Telescope.md");
    expect(sent).not.toMatch(/secret/i);
  });

  it("when a retriever hands a page of a differently-cased wiki folder over as a plain note", async () => {
    // Setting "wiki", disk "Wiki" (macOS, Windows): a case-sensitive scope sees the pages as notes.
    const vault = new MemoryVault({ "private/diary.md": SECRET, "Wiki/Telescope.md": PAGE_FROM_DIARY, "notes/optics.md": "Telescope mirror notes." });
    const provider = new ChatProvider(["ok"]);
    const retriever = new FixedRetriever([hit("Wiki/Telescope.md", "The secret telescope plans use a parabolic mirror."), hit("notes/optics.md", "Telescope mirror notes.")]);
    const report = await askWiki({ vault, provider, retriever, settings: settings("wiki") }, { question: "telescope mirror plans?", scope: "notes" });
    expect(report.passages.map((p) => p.path)).toEqual(["notes/optics.md"]);
    expect(provider.calls.map((c) => c.context).join("\n")).not.toMatch(/secret/i);
  });
});
