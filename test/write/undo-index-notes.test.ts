/**
 * index.md promises to keep "anything you add after a link": an undo that removes a page keeps
 * what the user wrote on that page's line, with the page's title in place of the link.
 */
import { describe, expect, it } from "vitest";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { applyPlan, type WriteContext } from "../../src/write/apply";
import { editIndex } from "../../src/write/index-log";
import { undoLastRun } from "../../src/write/undo";

const context = (store: MemoryStateStore): WriteContext => ({ store, writer: { kind: "cli", pid: 1, host: "here" } });
const INDEX = "wiki/index.md";

describe("undo of a run that created a page listed in index.md", () => {
  it("keeps the user's comment on the page's line", async () => {
    const store = new MemoryStateStore();
    const vault = new MemoryVault({ [INDEX]: "# Wiki index\n\n## Concepts\n\n- [[wiki/concepts/Old|Old]]\n" });
    const page = { path: "wiki/concepts/Alpha.md", type: "concept", title: "Alpha", action: "created" as const, create: "---\ntitle: Alpha\n---\n\nAlpha.\n" };
    await applyPlan(vault, [page], { ...context(store), operation: "ingest", label: "Source", wikiFolder: "wiki" });
    const listed = await vault.read(INDEX);
    expect(listed).toContain("- [[wiki/concepts/Alpha|Alpha]]\n");
    await vault.process(INDEX, (text) => text.replace("- [[wiki/concepts/Alpha|Alpha]]", "- [[wiki/concepts/Alpha|Alpha]] — ask Ada about this"));

    await undoLastRun(vault, context(store), { wikiFolder: "wiki" });

    expect(await vault.stat(page.path)).toBeNull();
    const index = await vault.read(INDEX);
    expect(index).toContain("- Alpha — ask Ada about this\n");
    expect(index).not.toContain("[[wiki/concepts/Alpha|");
    expect(index).toContain("- [[wiki/concepts/Old|Old]]\n");
  });

  it("still removes a line that carries nothing but the link", () => {
    const text = "# Wiki index\n\n## Concepts\n\n- [[wiki/concepts/A|A]]\n- [[wiki/concepts/B|B]]  \n";
    expect(editIndex(text, { remove: ["wiki/concepts/A.md", "wiki/concepts/B.md"] })).toBe("# Wiki index\n");
  });
});
