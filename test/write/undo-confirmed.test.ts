/**
 * An undo reverts the run the user confirmed, or nothing: another run landing between the preview
 * and the write lock, or a file edited after the user agreed to lose the listed edits, stops it
 * with a clear message and every file as it was.
 */
import { describe, expect, it } from "vitest";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { applyPlan, type ApplyRun, type PlannedChange, type WriteContext } from "../../src/write/apply";
import { previewUndo, undoLastRun } from "../../src/write/undo";

const NOW = () => Date.UTC(2026, 10, 30, 18, 0);
const context = (store: MemoryStateStore, pid = 1): WriteContext => ({ store, writer: { kind: "cli", pid, host: "here" }, lock: { waitMs: 60_000 } });
const run = (ctx: WriteContext, label: string, extra: Partial<ApplyRun> = {}): ApplyRun => ({ ...ctx, operation: "ingest", label, wikiFolder: "wiki", now: NOW, ...extra });
const create = (path: string, content: string): PlannedChange => ({ path, type: "concept", title: path, action: "created", create: content });

async function withOneRun() {
  const store = new MemoryStateStore();
  const vault = new MemoryVault();
  await applyPlan(vault, [create("wiki/concepts/A.md", "a")], run(context(store), "First"));
  return { store, vault };
}

describe("undo of a confirmed run", () => {
  it("undoes nothing when another run lands between its preview and the write lock", async () => {
    const { store, vault } = await withOneRun();
    const undone: Promise<unknown>[] = [];
    await applyPlan(vault, [create("wiki/concepts/B.md", "b")], {
      ...run(context(store), "Second"),
      afterEachWrite: async () => {
        // The undo previews while "Second" holds the lock and is not in the history yet.
        if (undone.length > 0) return;
        // Waiting for the lock proves the undo has previewed: "Second" goes on once it waits.
        let waiting!: () => void;
        const waits = new Promise<void>((resolve) => (waiting = resolve));
        const undoContext: WriteContext = { ...context(store, 2), lock: { waitMs: 60_000, onWait: () => waiting() } };
        undone.push(
          undoLastRun(vault, undoContext, { wikiFolder: "wiki", now: NOW }).then(
            () => null,
            (error: unknown) => error,
          ),
        );
        await waits;
      },
    });
    const [error] = await Promise.all(undone);
    expect(String(error)).toMatch(/The vault changed since the undo was confirmed \(the ingest of “Second” is now the last change\); nothing was undone\./);
    expect(Object.keys(vault.snapshot()).filter((p) => p.includes("/concepts/")).sort()).toEqual(["wiki/concepts/A.md", "wiki/concepts/B.md"]);
  });

  it("undoes nothing when the confirmed run is no longer the last one", async () => {
    const { store, vault } = await withOneRun();
    const first = await previewUndo(vault, context(store));
    await applyPlan(vault, [create("wiki/concepts/B.md", "b")], run(context(store), "Second"));
    const confirmed = { runId: first?.run.id ?? "", conflicts: [] };
    await expect(undoLastRun(vault, context(store), { wikiFolder: "wiki", confirmed })).rejects.toThrow(/“Second” is now the last change/);
    expect(await vault.read("wiki/concepts/B.md")).toBe("b");
  });

  it("keeps an edit made after the user agreed to lose the listed ones", async () => {
    const { store, vault } = await withOneRun();
    await applyPlan(vault, [create("wiki/concepts/B.md", "b")], run(context(store), "Second"));
    await vault.process("wiki/concepts/A.md", () => "a, edited");
    const preview = await previewUndo(vault, context(store));
    if (!preview) throw new Error("nothing to undo");
    expect(preview.conflicts).toEqual([]);
    await vault.process("wiki/concepts/B.md", () => "b, edited after the confirm");
    const confirmed = { runId: preview.run.id, conflicts: preview.conflicts };
    await expect(undoLastRun(vault, context(store), { wikiFolder: "wiki", force: true, confirmed })).rejects.toThrow(/wiki\/concepts\/B\.md/);
    expect(await vault.read("wiki/concepts/B.md")).toBe("b, edited after the confirm");
  });
});
