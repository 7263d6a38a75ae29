import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { pagePathArgument, readPage, wikiPages } from "../../src/cli/mcp/page-access";
import { DEFAULT_SETTINGS, type Settings } from "../../src/settings/schema";
import { NodeVault } from "../../src/vault/node-vault";
import { makeVault, tempDir } from "../helpers/temp-vault";

const settings = (): Settings => ({ ...structuredClone(DEFAULT_SETTINGS), excludedFolders: ["private"] });
const PAGE = "---\ntype: concept\ntitle: Engine\nsources:\n  - notes/a.md\n---\nAbout engines.\n";
const FROM_SECRET = "---\ntype: concept\ntitle: Secret\nsources:\n  - private/Diary.md\n---\nWords of the diary.\n";

describe("what synapse mcp lets an agent read", () => {
  it("takes vault paths only, adding .md, and refuses hidden folders, climbing and absolute paths", () => {
    expect(pagePathArgument("wiki\\concepts\\Engine")).toBe("wiki/concepts/Engine.md");
    expect(() => pagePathArgument("../x.md")).toThrow(/outside the vault/);
    expect(() => pagePathArgument("/etc/passwd")).toThrow(/absolute path/);
    expect(() => pagePathArgument(".obsidian/plugins/synapse/state/journal/x.json")).toThrow(/hidden folder/);
    expect(() => pagePathArgument("x".repeat(2000))).toThrow(/limit/);
  });

  it("refuses an excluded note, a page drawn from one, and a link that leads into an excluded folder", async () => {
    const root = makeVault({ "wiki/concepts/Engine.md": PAGE, "wiki/concepts/Secret.md": FROM_SECRET, "private/Diary.md": "# Diary\n", "notes/a.md": "# A\n" });
    symlinkSync(join(root, "private/Diary.md"), join(root, "notes/link.md"));
    const outside = tempDir("synapse-outside-");
    symlinkSync(outside, join(root, "notes/out"));
    const vault = new NodeVault(root);
    expect((await readPage(vault, settings(), "wiki/concepts/Engine")).text).toBe(PAGE);
    for (const path of ["private/Diary.md", "wiki/concepts/Secret.md", "notes/link.md", "notes/out/x.md"]) {
      await expect(readPage(vault, settings(), path), path).rejects.toMatchObject({ kind: "perimeter" });
    }
    expect((await wikiPages(vault, settings())).map((p) => p.path)).toEqual(["wiki/concepts/Engine.md"]);
  });

  it("hands a page over without Synapse's markers and attribution lines, its frontmatter and words kept", async () => {
    const marked = `${PAGE}\n%% synapse:source notes/a.md hash=0123456789abcdef %%\n*From [[notes/a|A]]*\n\nEngines turn.\n\n%% /synapse:source %%\n\nMy own line.\n`;
    const root = makeVault({ "wiki/concepts/Engine.md": marked, "notes/a.md": "# A\n" });
    const page = await readPage(new NodeVault(root), settings(), "wiki/concepts/Engine.md");
    expect(page.text).not.toMatch(/%%\s*\/?synapse|\*From \[\[/);
    expect(page.text).toBe("---\ntype: concept\ntitle: Engine\nsources:\n  - notes/a.md\n---\n\nAbout engines.\n\nEngines turn.\n\nMy own line.\n");
    expect(page.chars).toBe(page.text.length);
  });

  it("cuts a page longer than the limit and says so", async () => {
    const root = makeVault({ "notes/big.md": "a".repeat(150_000) });
    const page = await readPage(new NodeVault(root), settings(), "notes/big.md");
    expect(page).toMatchObject({ truncated: true, chars: 150_000 });
    expect(page.text.length).toBe(100_000);
  });
});
