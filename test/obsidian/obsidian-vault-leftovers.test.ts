import { App } from "obsidian-test-mocks/obsidian";
import { describe, expect, it } from "vitest";
import { ObsidianVault } from "../../src/obsidian/obsidian-vault";

function vaultWith(files: Record<string, string>) {
  const app = App.createConfigured__({ files });
  return { app, vault: new ObsidianVault(app.asOriginalType__()) };
}

/** The files on disk (leftovers are removed through the adapter; Obsidian's watcher updates its cache). */
const pathsIn = async (app: App, folder: string) => (await app.vault.adapter.list(folder)).files.sort();

describe("the plugin settles what a killed CLI left, as the CLI does", () => {
  it("puts a set-aside file back where nothing is, drops one equal to the file there, keeps a different one as a copy", async () => {
    const { app, vault } = vaultWith({
      "wiki/Back.md.0123456789ab.synapse-aside": "only copy",
      "wiki/Same.md": "same",
      "wiki/Same.md.0123456789ab.synapse-aside": "same",
      "wiki/Both.md": "the user's new save",
      "wiki/Both.md.0123456789ab.synapse-aside": "the user's earlier edit",
      "wiki/Half.md.0123456789ab.synapse-tmp": "half",
      "other/Else.md.0123456789ab.synapse-aside": "outside the folder",
    });
    const report = await vault.removeStrayTempFiles("wiki");
    expect(report).toEqual({
      removed: ["wiki/Half.md.0123456789ab.synapse-tmp", "wiki/Same.md.0123456789ab.synapse-aside"],
      restored: ["wiki/Back.md"],
      keptAs: ["wiki/Both (conflict).md"],
    });
    expect(await pathsIn(app, "wiki")).toEqual(["wiki/Back.md", "wiki/Both (conflict).md", "wiki/Both.md", "wiki/Same.md"]);
    expect(await vault.read("wiki/Back.md")).toBe("only copy");
    expect(await vault.read("wiki/Both.md")).toBe("the user's new save");
    expect(await vault.read("wiki/Both (conflict).md")).toBe("the user's earlier edit");
    expect(await pathsIn(app, "other")).toEqual(["other/Else.md.0123456789ab.synapse-aside"]);
  });

  it("finds the next free copy name, never overwriting one", async () => {
    const { app, vault } = vaultWith({ "P.md": "newer", "P (conflict).md": "an older copy", "P.md.0123456789ab.synapse-aside": "set aside" });
    const report = await vault.removeStrayTempFiles("");
    expect(report).toEqual({ removed: [], restored: [], keptAs: ["P (conflict 2).md"] });
    expect(await vault.read("P (conflict).md")).toBe("an older copy");
    expect(await vault.read("P (conflict 2).md")).toBe("set aside");
    expect(await pathsIn(app, "")).toEqual(["P (conflict 2).md", "P (conflict).md", "P.md"]);
  });

  it("leaves files that only look like leftovers alone", async () => {
    const { vault } = vaultWith({ "wiki/Notes on .synapse-aside.md": "a note", "wiki/x.synapse-aside": "no tag" });
    expect(await vault.removeStrayTempFiles("wiki")).toEqual({ removed: [], restored: [], keptAs: [] });
    expect(await vault.read("wiki/x.synapse-aside")).toBe("no tag");
  });
});
