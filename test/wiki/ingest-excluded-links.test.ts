/**
 * An ingest with the index as its catalogue (the CLI's way) does not call a link dangling when it
 * leads to a note in an excluded folder: the note exists, the index just never holds it.
 */
import { describe, expect, it } from "vitest";
import { indexCatalog } from "../../src/retrieval/catalog";
import { syncIndex } from "../../src/retrieval/sync";
import { VaultIndex } from "../../src/retrieval/vault-index";
import { readFrontmatter } from "../../src/retrieval/chunker";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { ingestNote } from "../../src/wiki/ingest-note";
import { aPage, ScriptedProvider, SOURCE_PATH } from "../builders";

describe("ingest with the index: links into excluded folders", () => {
  it("reports only the links that lead to no note at all", async () => {
    const vault = new MemoryVault({
      [SOURCE_PATH]: "# Source note\n\nThe keeper's routine.\n",
      "private/Keeper diary.md": "# Keeper diary\n\nNot for any model.\n",
    });
    const settings = { ...DEFAULT_SETTINGS, excludedFolders: ["private"] };
    const index = await VaultIndex.open({ frontmatter: readFrontmatter, store: new MemoryStateStore(), reader: vault, wikiFolder: "wiki", excludedFolders: settings.excludedFolders });
    await syncIndex(index, vault);
    const provider = new ScriptedProvider([[aPage().titled("Lighthouse routine").withContent("Kept in [[Keeper diary]]; compare [[Foghorn schedule]].").build()]]);

    const report = await ingestNote({ vault, provider, settings, retriever: index, catalog: indexCatalog(index, vault) }, { notePath: SOURCE_PATH });

    expect(report.error).toBeNull();
    expect(report.dangling.map((d) => d.target)).toEqual(["Foghorn schedule"]);
    // The excluded note was neither indexed nor shown to the model.
    expect(index.stateOf("private/Keeper diary.md")).toBeUndefined();
    expect(JSON.stringify([provider.analyzeCalls, provider.generateCalls])).not.toContain("Not for any model");
  });
});
