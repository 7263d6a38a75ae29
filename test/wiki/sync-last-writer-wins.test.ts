/**
 * Two devices ingest different notes into one synced vault, both touching one shared page, before
 * sync has carried either's work to the other. Sync then merges file by file, the last writer
 * winning (the state folder too), in both orders. Whatever it kept, no note may read "up to date"
 * when a page of its lacks its section, and the next run leaves index.md listing exactly the pages.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { ingestNote } from "../../src/wiki/ingest-note";
import { markedSources } from "../../src/wiki/provenance";
import { SourceRegistry } from "../../src/wiki/source-registry";
import { aPage, ScriptedProvider } from "../builders";
import { aDevice, copyFiles, copyState, type Device } from "../helpers/two-devices";

const ALPHA = "notes/Alpha.md";
const BETA = "notes/Beta.md";
const NOTES = { [ALPHA]: "# Alpha\n\nAlpha is about the shared idea.\n", [BETA]: "# Beta\n\nBeta is about the shared idea too.\n" };
const SHARED = "wiki/concepts/Shared idea.md";

function providerFor(note: string, own: string): ScriptedProvider {
  return new ScriptedProvider([
    [
      aPage().titled("Shared idea").withSources(note).withContent(`The shared idea, as ${own} tells it.`).build(),
      aPage().titled(`${own} only`).withSources(note).withContent(`What only ${own} says.`).build(),
    ],
  ]);
}

async function ingest(device: Pick<Device, "vault" | "context">, note: string) {
  const own = note === ALPHA ? "Alpha" : "Beta";
  return ingestNote({ vault: device.vault, provider: providerFor(note, own), settings: DEFAULT_SETTINGS, write: device.context }, { notePath: note });
}

/** What sync leaves when `later`'s copy of every file both have wins. */
async function merged(earlier: Device, later: Device) {
  const vault = new MemoryVault();
  const store = new MemoryStateStore();
  await copyFiles(earlier.vault, vault);
  await copyFiles(later.vault, vault);
  copyState(earlier.store, store);
  copyState(later.store, store);
  return { vault, store };
}

const indexTargets = (index: string) => [...index.matchAll(/^- \[\[([^\]|]+)\|/gm)].map((m) => `${m[1]}.md`).sort();

describe("state and pages merged by last-writer-wins sync", () => {
  it.each([
    ["the laptop's", true],
    ["the desk's", false],
  ])("never leaves a note wrongly up to date, and the next run lists exactly the pages, when %s copies win", async (_name, laptopWins) => {
    const laptop = aDevice("laptop", NOTES);
    const desk = aDevice("desk", NOTES, 2);
    expect((await ingest(laptop, ALPHA)).error).toBeNull();
    expect((await ingest(desk, BETA)).error).toBeNull();
    const { vault, store } = laptopWins ? await merged(desk, laptop) : await merged(laptop, desk);
    const here = { ...laptop, vault, store, context: { ...laptop.context, store } };

    // The shared page kept one device's copy: the other note's section is gone with it.
    const sections = markedSources(await vault.read(SHARED));
    const lost = laptopWins ? BETA : ALPHA;
    expect(sections).not.toContain(lost);

    const registry = new SourceRegistry(store);
    const marked = async (page: string) => ((await vault.stat(page)) ? markedSources(await vault.read(page)) : []);
    for (const note of [ALPHA, BETA]) {
      const hash = (await registry.entry(note))?.hash;
      if (!hash) continue; // its registry shard lost to the other device's: "nothing known", re-ingested
      const upToDate = await registry.upToDate(note, hash, "wiki", async (p) => (await vault.stat(p)) !== null, marked);
      if (upToDate) for (const page of upToDate.entry.pages) expect(await marked(page)).toContain(note);
    }

    // The note that lost its section is ingested again, which puts it back and mends index.md.
    const again = await ingest(here, lost);
    expect(again.upToDate).toBeNull();
    expect(again.error).toBeNull();
    expect(markedSources(await vault.read(SHARED))).toContain(lost);
    const pages = Object.keys(vault.snapshot()).filter((p) => p.startsWith("wiki/concepts/")).sort();
    expect(indexTargets(await vault.read("wiki/index.md"))).toEqual(pages);
  });
});
