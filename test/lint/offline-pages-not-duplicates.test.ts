/**
 * The pages one Offline ingest writes for a note (its source page and the entity and concept pages
 * it names) quote the same sentences of that note; lint's near-duplicate check leaves them apart
 * (similar-pages.ts `splitByDesign`), but still pairs them once the user has edited one.
 */
import { cpSync, appendFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OfflineProvider } from "../../src/providers/offline/offline-provider";
import { runLint } from "../../src/lint/run-lint";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { NodeVault } from "../../src/vault/node-vault";
import { ingestNote } from "../../src/wiki/ingest-note";
import { makeVault } from "../helpers/temp-vault";

const EXAMPLES = new URL("../../examples/vault", import.meta.url).pathname;
const NOTES = ["Notes/Ada Lovelace.md", "Notes/Zettelkasten method.md", "Clippings/Local-first software.md"];

async function offlineWiki(): Promise<{ root: string; lint: () => ReturnType<typeof runLint> }> {
  const root = makeVault();
  cpSync(EXAMPLES, root, { recursive: true });
  const vault = new NodeVault(root);
  const store = new MemoryStateStore();
  for (const notePath of NOTES) {
    const report = await ingestNote({ vault, state: store, provider: new OfflineProvider(), settings: DEFAULT_SETTINGS, now: () => Date.UTC(2026, 10, 29, 9, 30) }, { notePath });
    expect(report.converged).toBe(true);
  }
  return { root, lint: () => runLint({ vault, store, settings: DEFAULT_SETTINGS }) };
}

const duplicates = (report: Awaited<ReturnType<typeof runLint>>) => report.findings.filter((f) => f.check === "duplicate").map((f) => f.message);

describe("lint on the pages of one Offline ingest", () => {
  it("finds no near-duplicates among the pages one note's ingest wrote", async () => {
    const { lint } = await offlineWiki();
    const report = await lint();
    expect(report.error).toBeNull();
    expect(duplicates(report)).toEqual([]);

  });

  it("pairs them again once the user has edited one: a page of the user's own is compared as any", async () => {
    const { root, lint } = await offlineWiki();
    appendFileSync(join(root, "wiki/entities/Analytical Engine.md"), "\nMy own line about it.\n");
    const found = duplicates(await lint());
    expect(found).toContainEqual(expect.stringMatching(/^"(Charles Babbage|Analytical Engine)" and "(Charles Babbage|Analytical Engine)" say nearly the same thing/));
    // Only pairs with the edited page: the others are still left apart.
    expect(found.every((message) => message.includes('"Analytical Engine"'))).toBe(true);
  });
});
