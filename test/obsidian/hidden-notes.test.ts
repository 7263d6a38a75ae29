/**
 * Obsidian never shows a file or folder whose name starts with "." (its scan of the folder leaves
 * them out of the vault tree, as obsidian-test-mocks' `reconcile__` does): the CLI's file-system
 * vault lists the same notes as the plugin's, so `synapse index` and the plugin index the same vault.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { App } from "obsidian-test-mocks/obsidian";
import { afterAll, describe, expect, it } from "vitest";
import { ObsidianVault } from "../../src/obsidian/obsidian-vault";
import { NodeVault } from "../../src/vault/node-vault";

const FILES: Record<string, string> = {
  "notes/Visible.md": "seen",
  "notes/a.b/Dotted folder name.md": "seen",
  "notes/x.draft.md": "seen",
  "wiki/concepts/Page.md": "seen",
  ".hidden/Secret.md": "hidden folder",
  "notes/.drafts/Draft.md": "hidden folder inside a folder",
  "notes/.Hidden note.md": "hidden file",
  "notes/..twice/Note.md": "hidden folder",
  ".stversions/notes/Visible~20261201.md": "a sync tool's copies",
  ".obsidian/plugins/synapse/state/x.md": "Synapse's own state",
  ".trash/Old.md": "trash",
};

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function onDisk(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "synapse-hidden-"));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe("hidden files and folders", () => {
  it("are listed by neither the CLI's vault nor the plugin's, which list the same notes", async () => {
    const node = new NodeVault(onDisk(FILES));
    // Written to the adapter (the disk), then scanned into the vault tree as Obsidian does on start.
    const app = App.createConfigured__();
    for (const [path, text] of Object.entries(FILES)) {
      await app.vault.adapter.mkdir(dirname(path));
      await app.vault.adapter.write(path, text);
    }
    app.vault.reconcile__();
    const plugin = new ObsidianVault(app.asOriginalType__());
    const visible = ["notes/Visible.md", "notes/a.b/Dotted folder name.md", "notes/x.draft.md", "wiki/concepts/Page.md"].sort();
    expect(await plugin.list("")).toEqual(visible);
    expect(await node.list("")).toEqual(visible);
    expect(await node.list("notes")).toEqual(await plugin.list("notes"));
  });
});
