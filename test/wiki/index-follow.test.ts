import { describe, expect, it } from "vitest";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import type { WriteContext } from "../../src/write/apply";
import { followPages } from "../../src/wiki/index-follow";
import { readHistory } from "../../src/write/run-history";
import { undoLastRun } from "../../src/write/undo";

const page = (title: string) => `---\ntype: concept\ntitle: ${title}\nsources: [notes/a.md]\n---\n\n${title}.\n`;
const INDEX = "# Wiki index\n\n## Concepts\n\n- [[wiki/concepts/Alpha|Alpha]] — my note on it\n- [[wiki/concepts/Beta|Beta]]\n- [[wiki/concepts/Gamma|Gamma]]\n";

function setup() {
  const vault = new MemoryVault({ "wiki/concepts/Alpha.md": page("Alpha"), "wiki/concepts/Beta.md": page("Beta"), "wiki/concepts/Gamma.md": page("Gamma"), "wiki/index.md": INDEX });
  const write: WriteContext = { store: new MemoryStateStore(), writer: { kind: "cli", pid: null, host: null } };
  return { vault, write };
}

async function rename(vault: MemoryVault, from: string, to: string) {
  await vault.create(to, await vault.read(from));
  await vault.remove(from);
}

describe("index.md follows the pages the user renames and deletes", () => {
  it("points a renamed page's line at its new path in place, keeping what the user wrote after it", async () => {
    const { vault, write } = setup();
    await rename(vault, "wiki/concepts/Alpha.md", "wiki/concepts/Alpha (renamed).md");
    await followPages(vault, write, "wiki", { moves: [{ from: "wiki/concepts/Alpha.md", to: "wiki/concepts/Alpha (renamed).md" }] });
    expect(await vault.read("wiki/index.md")).toBe(INDEX.replace("[[wiki/concepts/Alpha|Alpha]]", "[[wiki/concepts/Alpha (renamed)|Alpha]]"));
  });

  it("drops a deleted page's line, found on disk without being told, as one undoable run", async () => {
    const { vault, write } = setup();
    await vault.remove("wiki/concepts/Beta.md");
    const result = await followPages(vault, write, "wiki");
    expect(await vault.read("wiki/index.md")).toBe(INDEX.replace("- [[wiki/concepts/Beta|Beta]]\n", ""));
    expect((await readHistory(write.store)).runs[0]).toMatchObject({ id: result?.runId, operation: "index" });
    await undoLastRun(vault, write, { wikiFolder: "wiki" });
    expect(await vault.read("wiki/index.md")).toBe(INDEX);
  });

  it("writes nothing, and records no run, when index.md is in step", async () => {
    const { vault, write } = setup();
    expect(await followPages(vault, write, "wiki")).toBeNull();
    expect((await readHistory(write.store)).runs).toEqual([]);
    expect(await vault.read("wiki/index.md")).toBe(INDEX);
  });
});
