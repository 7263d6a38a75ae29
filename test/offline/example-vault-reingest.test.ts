/**
 * An example note edited and ingested again by the Offline provider, through the real write path:
 * the updated pages say what the note says now, each line once, and a page the edit does not touch
 * is left as it was — the review of the update shows only what changed in the note.
 */
import { appendFileSync, cpSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { OfflineProvider } from "../../src/providers/offline/offline-provider";
import { NodeVault } from "../../src/vault/node-vault";
import { ingestNote } from "../../src/wiki/ingest-note";
import { makeVault, readVaultFile } from "../helpers/temp-vault";

const EXAMPLES = new URL("../../examples/vault", import.meta.url).pathname;
const NOTE = "Notes/Ada Lovelace.md";
const SOURCE_PAGE = "wiki/sources/Ada Lovelace (source).md";
const TERM_PAGES = ["wiki/entities/Analytical Engine.md", "wiki/entities/Charles Babbage.md"];

function exampleVault(): string {
  const root = makeVault();
  cpSync(EXAMPLES, root, { recursive: true });
  return root;
}

const ingest = (root: string) =>
  ingestNote({ vault: new NodeVault(root), provider: new OfflineProvider(), settings: DEFAULT_SETTINGS, now: () => Date.UTC(2026, 10, 29, 9, 30) }, { notePath: NOTE });

/** The lines of the page's outline section, in order. */
function outline(page: string): string[] {
  const section = /^## Outline\n\n((?:- .*\n)+)/m.exec(page);
  return section?.[1]?.trimEnd().split("\n") ?? [];
}

describe("an example note edited and ingested again offline", () => {
  it("lists each of the note's headings once in the updated outline", async () => {
    const root = exampleVault();
    await ingest(root);
    expect(outline(readVaultFile(root, SOURCE_PAGE))).toEqual(["- Legacy"]);

    appendFileSync(join(root, NOTE), "\n## Republication\n\nHer notes were republished in 1953 by B. V. Bowden in *Faster than Thought*.\n");
    const report = await ingest(root);
    expect(report.error).toBeNull();
    expect(report.pages).toContainEqual(expect.objectContaining({ path: SOURCE_PAGE, action: "updated" }));
    expect(outline(readVaultFile(root, SOURCE_PAGE))).toEqual(["- Legacy", "- Republication"]);
  });

  it("leaves the pages of terms the edit does not touch as they were, their link to the note included", async () => {
    const root = exampleVault();
    await ingest(root);
    const before = TERM_PAGES.map((path) => readVaultFile(root, path));
    // The note, not the wiki's source page beside it: the user's note keeps its plain name.
    for (const page of before) expect(page).toContain("## Mentioned in\n\n- [[Ada Lovelace]]\n");

    appendFileSync(join(root, NOTE), "\n## Republication\n\nHer notes were republished in 1953 by B. V. Bowden in *Faster than Thought*.\n");
    const report = await ingest(root);
    expect(report.error).toBeNull();
    for (const path of TERM_PAGES) expect(report.pages).toContainEqual(expect.objectContaining({ path, action: "unchanged" }));
    expect(TERM_PAGES.map((path) => readVaultFile(root, path))).toEqual(before);
  });
});
