/**
 * `compact` merges ahead of a search the segments that search would merge first (after many edits
 * or removals), and the answers stay those of a rebuild.
 */
import { expect, it } from "vitest";
import { shardOf } from "../../src/retrieval/shard-of";
import { syncIndex } from "../../src/retrieval/sync";
import { readFrontmatter } from "../../src/retrieval/chunker";
import { VaultIndex } from "../../src/retrieval/vault-index";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";

it("merges the segment a search would merge first, and the answers stay those of a rebuild", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; Object.keys(files).length < 200; i++) {
    const path = `notes/n${i}.md`;
    if (shardOf(path) === 3) files[path] = `# Note ${i}\n\nCompost and ${i % 2 ? "worms" : "leaves"} ${Array.from({ length: 30 }, (_, k) => `w${i}x${k}`).join(" ")}`;
  }
  const vault = new MemoryVault(files);
  const index = await VaultIndex.open({ frontmatter: readFrontmatter, store: new MemoryStateStore(), reader: vault, wikiFolder: "wiki", excludedFolders: [] });
  await syncIndex(index, vault);
  // Removing half the segment's notes leaves more dead chunks than a search reads around.
  for (const path of Object.keys(files).slice(0, 100)) {
    index.remove(path);
    await vault.remove(path);
  }
  expect(index.text.searchMergeWanted).toBe(true);
  await index.compact();
  expect(index.text.searchMergeWanted).toBe(false);
  const rebuilt = await VaultIndex.open({ frontmatter: readFrontmatter, store: new MemoryStateStore(), reader: vault, wikiFolder: "wiki", excludedFolders: [] });
  await syncIndex(rebuilt, vault);
  for (const q of ["compost worms", "leaves", "note"]) {
    expect(index.searchText(q, { scope: { kind: "all" }, limit: 50 })).toEqual(rebuilt.searchText(q, { scope: { kind: "all" }, limit: 50 }));
  }
});
