/**
 * Embedding sends a note's text to the embedding model, so the vector backend embeds only what
 * may be shared: never a note in an excluded folder, nor a wiki page drawn from one (its frontmatter
 * `sources`, in any spelling), while the same page stays searchable by its text on this machine.
 */
import { describe, expect, it } from "vitest";
import { syncIndex } from "../../src/retrieval/sync";
import { VaultIndex } from "../../src/retrieval/vault-index";
import { readFrontmatter } from "../../src/retrieval/chunker";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { countingEmbedder, type CountingEmbedder } from "./vector-embedder";

const page = (sources: readonly string[], body: string) =>
  `---\ntype: concept\nsources:\n${sources.map((s) => `  - "${s}"`).join("\n")}\n---\n\n${body}\n`;

const FILES: Record<string, string> = {
  "private/diary.md": "# Diary\n\nSecret telescope plans with a parabolic mirror.",
  "notes/optics.md": "# Optics\n\nLenses bend light.",
  "wiki/Telescope.md": page(["[[private/diary]]"], "The secret telescope plans use a parabolic mirror."),
  "wiki/Mirror.md": page(["./Private/Diary.md"], "A parabolic mirror from the diary's plans."),
  "wiki/Mixed.md": page(["notes/optics.md", "private/diary.md"], "Mixed secret plans and lenses."),
  "wiki/Lens.md": page(["[[notes/optics]]"], "Lenses bend light into a focus."),
  "wiki/Own.md": "# Own\n\nThe user's own page, citing nothing.",
};

async function built(embedder: CountingEmbedder): Promise<VaultIndex> {
  const vault = new MemoryVault(FILES);
  const index = await VaultIndex.open({ frontmatter: readFrontmatter, store: new MemoryStateStore(), reader: vault, wikiFolder: "wiki", excludedFolders: ["private"], embedder });
  await syncIndex(index, vault);
  return index;
}

describe("embedding respects the perimeter", () => {
  it("never sends a wiki page drawn from an excluded note to the embedding model", async () => {
    const embedder = countingEmbedder();
    const index = await built(embedder);
    const sent = embedder.calls.flat().join("\n");
    expect(sent).not.toMatch(/secret|parabolic|diary/i);
    expect(sent).toContain("Lenses bend light into a focus.");
    expect(sent).toContain("The user's own page");
    // Still found by its words: the text index never leaves this machine.
    expect(index.searchText("telescope", { scope: { kind: "wiki" }, limit: 5 }).map((h) => h.path)).toEqual(["wiki/Telescope.md"]);
  });

  it("does not embed such a page on a later pass either", async () => {
    const embedder = countingEmbedder();
    const index = await built(embedder);
    const before = embedder.calls.length;
    await index.embedPending();
    expect(embedder.calls.slice(before).flat().join("\n")).not.toMatch(/secret|parabolic/i);
  });
});
