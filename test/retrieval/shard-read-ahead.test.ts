/**
 * A warm start reads the next few shards while it decodes one (the disk works while the main
 * thread decodes, instead of in turn with it), and loads the same index as reading one at a time.
 * The store's reads are held until released, so how many run at once is counted, not timed.
 */
import { describe, expect, it } from "vitest";
import { loadShards } from "../helpers/stored-shards";
import { syncIndex } from "../../src/retrieval/sync";
import { VaultIndex } from "../../src/retrieval/vault-index";
import { readFrontmatter } from "../../src/retrieval/chunker";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";

function vault(): MemoryVault {
  const files: Record<string, string> = {};
  for (let i = 0; i < 120; i++) files[`notes/n${i}.md`] = `# Note ${i}\n\nCompost ${i % 3 ? "worms" : "leaves"} and w${i} [[n${(i + 1) % 120}]]\n`;
  return new MemoryVault(files);
}

/** A store whose reads wait until the test releases them, counting the reads in flight. */
class HeldReads extends MemoryStateStore {
  inFlight = 0;
  mostInFlight = 0;
  failOn: string | null = null;
  private readonly held: (() => void)[] = [];

  override async readBytes(key: string): Promise<Uint8Array | null> {
    this.inFlight += 1;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    await new Promise<void>((resolve) => this.held.push(resolve));
    this.inFlight -= 1;
    if (key === this.failOn) throw new Error("disk error");
    return super.readBytes(key);
  }

  /** Lets every held read finish, until the load is done. */
  async releaseUntil(done: Promise<unknown>): Promise<void> {
    let finished = false;
    void done.then(
      () => (finished = true),
      () => (finished = true),
    );
    while (!finished) {
      this.held.splice(0).forEach((release) => release());
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
}

async function persisted(): Promise<{ store: HeldReads; reference: VaultIndex; notes: MemoryVault }> {
  const notes = vault();
  const store = new HeldReads();
  const options = { reader: notes, wikiFolder: "wiki", excludedFolders: [] };
  const reference = await VaultIndex.open({ frontmatter: readFrontmatter, ...options, store: new MemoryStateStore() });
  await syncIndex(reference, notes);
  const built = await VaultIndex.open({ frontmatter: readFrontmatter, ...options, store });
  await syncIndex(built, notes);
  return { store, reference, notes };
}

describe("a warm start", () => {
  it("reads a few shards ahead of the one it decodes, and loads the index a sync would build", async () => {
    const { store, reference, notes } = await persisted();
    const opening = VaultIndex.open({ frontmatter: readFrontmatter, store, reader: notes, wikiFolder: "wiki", excludedFolders: [] });
    await store.releaseUntil(opening);
    const index = await opening;
    expect(store.mostInFlight).toBeGreaterThan(1);
    expect(store.mostInFlight).toBeLessThanOrEqual(5);
    expect(index.size).toBe(120);
    for (const q of ["compost worms", "leaves", "w7"]) {
      expect(index.searchText(q, { scope: { kind: "all" }, limit: 20 })).toEqual(reference.searchText(q, { scope: { kind: "all" }, limit: 20 }));
    }
    expect(index.graph.backlinks("notes/n8.md")).toEqual(["notes/n7.md"]);
  });

  it("fails on a shard that cannot be read, and leaves no read behind unhandled", async () => {
    const { store } = await persisted();
    store.failOn = (await store.list("index")).find((key) => key.endsWith(".bin")) ?? null;
    const loading = loadShards(store);
    await store.releaseUntil(loading);
    await expect(loading).rejects.toThrow("disk error");
  });
});
