/**
 * Embedding follows ingest's admission rules: a binary file named like a note, or a note over the
 * "Largest note" limit, is never sent to the embedding model (ingest refuses both).
 */
import { describe, expect, it } from "vitest";
import { syncIndex } from "../../src/retrieval/sync";
import { VaultIndex } from "../../src/retrieval/vault-index";
import { readFrontmatter } from "../../src/retrieval/chunker";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { countingEmbedder } from "./vector-embedder";

const LIMIT = 2048;
const FILES: Record<string, string> = {
  "notes/Binary blob.md": `PK\u0003\u0004\u0000\u0000blobbytes${"\u0000zzbinary".repeat(50)}`,
  "notes/Huge.md": `# Huge\n\n${"Enormous paragraph about glaciers. ".repeat(200)}`,
  "notes/Bees.md": "# Bees\n\nBees dance to tell where the flowers are.",
};

async function built() {
  const embedder = countingEmbedder();
  const vault = new MemoryVault(FILES);
  const index = await VaultIndex.open({ frontmatter: readFrontmatter, store: new MemoryStateStore(), reader: vault, wikiFolder: "wiki", excludedFolders: [], embedder, maxNoteBytes: LIMIT });
  await syncIndex(index, vault);
  await index.embedPending();
  return embedder;
}

describe("embedding admits only what ingest admits", () => {
  it("never sends a binary note or one over the size limit to the embedding model", async () => {
    const embedder = await built();
    const sent = embedder.calls.flat().join("\n");
    expect(sent).toContain("Bees dance");
    expect(sent).not.toMatch(/blobbytes|zzbinary/);
    expect(sent.includes("\u0000")).toBe(false);
    expect(sent).not.toContain("glaciers");
  });
});
