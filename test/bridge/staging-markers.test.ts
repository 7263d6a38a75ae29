/**
 * The agent is a model: no staged copy, for an ingest or a question, holds Synapse's source markers
 * or attribution lines, while the pages keep their frontmatter and every word they say. The checks
 * are this file's own patterns, not the stripping under test.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createQueryStaging } from "../../src/bridge/query-staging";
import { collectChanges, createStaging } from "../../src/bridge/staging";
import { makeVault, NOTE_PATH, type TestVault } from "../helpers/bridge-fixtures";

const PAGE_PATH = "wiki/entities/Martin Kleppmann.md";
const FRONTMATTER = "---\ntype: entity\ntitle: Martin Kleppmann\nsources:\n  - Clippings/Local-first software.md\n  - Notes/Talks.md\nsynapse_id: sy-entity-0123\n---\n";
const PAGE = `${FRONTMATTER}
My own aside: I met him in 2019.

%% synapse:source Clippings/Local-first software.md hash=0123456789abcdef %%
*From [[Clippings/Local-first software|Local-first software]]*

Martin Kleppmann co-wrote the essay on local-first software.

%% /synapse:source %%

%% synapse:source Notes/Talks.md hash=fedcba9876543210 %%
*From [[Notes/Talks|Talks]]*

## Talks

He speaks about CRDTs.

%% /synapse:source %%
`;

const MARKER = /%%\s*\/?synapse:/i;
const ATTRIBUTION = /^\s*\*From \[\[[^\]\n]*\]\]\*\s*$/m;

describe("no marker in the agent's staging copies", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  let vault: TestVault;
  afterEach(async () => {
    for (const clean of cleanups.splice(0).reverse()) await clean();
  });
  const withPage = () => {
    vault = makeVault();
    vault.write(PAGE_PATH, PAGE);
    cleanups.push(vault.dispose);
  };

  it("an ingest's copy holds the page without markers, frontmatter and words kept; an untouched page is not returned", async () => {
    withPage();
    const previous = { path: "wiki/sources/Local-first software.md", content: "---\ntitle: Local-first software\n---\n%% /synapse:source %%\nRejected page.\n" };
    const staging = await createStaging({ vaultRoot: vault.root, notePath: NOTE_PATH, wikiFolder: "wiki", excludedFolders: [], previousPages: [previous] });
    cleanups.push(() => staging.dispose());
    const staged = readFileSync(join(staging.root, ...PAGE_PATH.split("/")), "utf8");
    expect(staged).not.toMatch(MARKER);
    expect(staged).not.toMatch(ATTRIBUTION);
    expect(staged.startsWith(FRONTMATTER)).toBe(true);
    for (const words of ["My own aside: I met him in 2019.", "Martin Kleppmann co-wrote the essay", "## Talks", "He speaks about CRDTs."]) expect(staged).toContain(words);
    // A repair round's previous page goes in clean too.
    expect(readFileSync(join(staging.root, ...previous.path.split("/")), "utf8")).not.toMatch(MARKER);
    // The page as staged is the baseline: left alone, it is no change of the agent's.
    const changes = await collectChanges(staging);
    expect(changes.pages.map((p) => p.path)).toEqual([previous.path]);
  });

  it("a question's copy holds the wiki's pages without markers", async () => {
    withPage();
    const staging = await createQueryStaging({ vaultRoot: vault.root, wikiFolder: "wiki", excludedFolders: [], notes: "all" });
    cleanups.push(() => staging.dispose());
    expect(staging.files).toContain(PAGE_PATH);
    for (const path of staging.files) {
      const text = readFileSync(join(staging.root, ...path.split("/")), "utf8");
      expect(text, path).not.toMatch(MARKER);
      expect(text, path).not.toMatch(ATTRIBUTION);
    }
    const staged = readFileSync(join(staging.root, ...PAGE_PATH.split("/")), "utf8");
    expect(staged.startsWith(FRONTMATTER)).toBe(true);
    expect(staged).toContain("He speaks about CRDTs.");
  });
});
