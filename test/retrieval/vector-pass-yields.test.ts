/**
 * The start of an embedding pass over a whole vault (a first build, a new model, dropped shards)
 * sorts out the notes that need vectors in steps, with a checkpoint between them: on Obsidian's
 * main thread each is a chance to yield. Counted, not timed.
 */
import { expect, it } from "vitest";
import { VaultIndex } from "../../src/retrieval/vault-index";
import { readFrontmatter } from "../../src/retrieval/chunker";
import { PENDING_STEP } from "../../src/retrieval/vector-backend";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { countingEmbedder } from "./vector-embedder";

it("checkpoints while it sorts out the notes that need vectors, before reading the first", async () => {
  const steps = 5;
  const files = new Map<string, string>();
  let checkpointsBeforeFirstRead: number | null = null;
  let checkpoints = 0;
  const reader = {
    read(path: string): Promise<string> {
      checkpointsBeforeFirstRead ??= checkpoints;
      return Promise.resolve(files.get(path) ?? "");
    },
  };
  const index = await VaultIndex.open({ frontmatter: readFrontmatter, store: new MemoryStateStore(), reader, wikiFolder: "wiki", excludedFolders: ["private"], embedder: countingEmbedder() });
  for (let i = 0; i < steps * PENDING_STEP; i++) {
    const path = `folder${i % 97}/note ${i}.md`;
    const text = `# Note ${i}\n\nSome words ${i}.`;
    files.set(path, text);
    index.upsert(path, text, { mtime: 1, size: text.length });
  }
  const controller = new AbortController();
  const pass = index.embedPending({
    signal: controller.signal,
    checkpoint: () => {
      checkpoints += 1;
      if (checkpointsBeforeFirstRead !== null) controller.abort(new Error("enough"));
      return Promise.resolve();
    },
  });
  await expect(pass).rejects.toThrow("enough");
  // One checkpoint per PENDING_STEP notes sorted out, then the one before the first note is read.
  expect(checkpointsBeforeFirstRead).toBe(steps + 1);
});
