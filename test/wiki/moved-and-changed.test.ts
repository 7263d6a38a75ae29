/**
 * A note moved and changed is the same source under a new path: its re-ingest revises the note's
 * sections where they are (no stale section under the old path, no second section), retracts it
 * from pages it no longer yields, and `sources` names the new path — whether the move was noticed
 * first (an up-to-date ingest after the move) or both happened between two ingests.
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { frontmatterPaths, splitFrontmatter } from "../../src/core/markdown";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { NodeStateStore } from "../../src/vault/node-state-store";
import { NodeVault } from "../../src/vault/node-vault";
import type { VaultPort } from "../../src/vault/vault-port";
import type { WriteContext } from "../../src/write/apply";
import { ingestNote } from "../../src/wiki/ingest-note";
import { parseBody } from "../../src/wiki/provenance";
import { SourceRegistry } from "../../src/wiki/source-registry";
import { syncIndex } from "../../src/retrieval/sync";
import { aPage, ScriptedProvider } from "../builders";
import { makeVault } from "../helpers/temp-vault";
import { crowdedCatalogRig } from "../helpers/catalog-rig";

const A = "notes/A.md";
const B = "notes/B.md";
const SHARED = "wiki/concepts/Shared topic.md";
const ONLY_A = "wiki/concepts/Only A.md";
const NOW = () => Date.parse("2026-12-01T06:00:00Z");

const page = (title: string, source: string, content: string) => aPage().titled(title).withSources(source).withContent(content).build();
/** Paths as NFC: a note ingested under a decomposed path is cited as it was spelled. */
const sourcesOf = (text: string) => frontmatterPaths(splitFrontmatter(text).frontmatter.sources).map((s) => s.normalize("NFC"));
const sectionSources = (text: string) => parseBody(splitFrontmatter(text).body).flatMap((s) => (s.kind === "section" ? [s.source.normalize("NFC")] : []));

interface Rig {
  readonly vault: VaultPort;
  readonly write: WriteContext;
  /** Moves a note (as a file manager or `mv` would) and replaces its text. */
  readonly move: (from: string, to: string, text?: string) => Promise<void>;
}

function memoryRig(): Rig {
  const vault = new MemoryVault({ [A]: "# A\n\nVersion one.", [B]: "# B\n\nB's view." });
  const move = async (from: string, to: string, text?: string) => {
    const old = await vault.read(from);
    await vault.remove(from);
    await vault.create(to, text ?? old);
  };
  return { vault, write: { store: new MemoryStateStore(), writer: { kind: "cli", pid: null, host: null } }, move };
}

function diskRig(): Rig {
  const root = makeVault({ [A]: "# A\n\nVersion one.", [B]: "# B\n\nB's view." });
  const move = (from: string, to: string, text?: string) => {
    mkdirSync(dirname(join(root, to)), { recursive: true });
    renameSync(join(root, from), join(root, to));
    if (text !== undefined) writeFileSync(join(root, to), text);
    return Promise.resolve();
  };
  return { vault: new NodeVault(root), write: { store: new NodeStateStore(join(root, ".state")), writer: { kind: "cli", pid: null, host: null } }, move };
}

function ingester(rig: Rig) {
  return (notePath: string, pages: ReturnType<typeof page>[]) =>
    ingestNote({ vault: rig.vault, provider: new ScriptedProvider([pages]), settings: DEFAULT_SETTINGS, write: rig.write, now: NOW }, { notePath });
}

/** A and B on one page, and a page only A yields. */
async function twoNotes(rig: Rig) {
  const ingest = ingester(rig);
  await ingest(A, [page("Shared topic", A, "A's first claim about the topic."), page("Only A", A, "Something only A said.")]);
  await ingest(B, [page("Shared topic", B, "B's own claim.")]);
  return ingest;
}

async function expectRevisedUnder(rig: Rig, to: string) {
  const shared = await rig.vault.read(SHARED);
  expect(shared).toContain("A's second claim about the topic.");
  expect(shared).not.toContain("A's first claim about the topic.");
  expect(shared).toContain("B's own claim.");
  expect(sectionSources(shared)).toEqual([to, B]);
  expect(sourcesOf(shared)).toEqual([to, B]);
  const onlyA = await rig.vault.read(ONLY_A);
  expect(onlyA).not.toContain("Something only A said.");
  expect(sectionSources(onlyA)).toEqual([]);
  expect(sourcesOf(onlyA)).toEqual([]);
  expect(Object.keys((await new SourceRegistry(rig.write.store).load()).notes).sort()).toEqual([B, to].sort());
}

describe.each([
  ["the memory vault", memoryRig],
  ["the vault on disk", diskRig],
])("a note moved and changed, in %s", (_where, makeRig) => {
  it("is revised as the same source when both happened between two ingests", async () => {
    const rig = makeRig();
    const ingest = await twoNotes(rig);
    await rig.move(A, "archive/A.md", "# A\n\nVersion two.");
    const report = await ingest("archive/A.md", [page("Shared topic", "archive/A.md", "A's second claim about the topic.")]);
    expect(report.error).toBeNull();
    await expectRevisedUnder(rig, "archive/A.md");
    expect(report.pages.find((p) => p.path === SHARED)?.action).toBe("updated");
  });

  it("is revised as the same source when the move was recorded first, into a decomposed (NFD) folder name", async () => {
    const rig = makeRig();
    const ingest = await twoNotes(rig);
    const to = "Archive\u0301/A.md";
    await rig.move(A, to);
    expect((await ingest(to, [])).upToDate?.movedFrom).toBe(A);
    await rig.move(to, to, "# A\n\nVersion two.");
    const report = await ingest(to, [page("Shared topic", to, "A's second claim about the topic.")]);
    expect(report.error).toBeNull();
    await expectRevisedUnder(rig, to.normalize("NFC"));
  });
});

describe("a note moved in Obsidian, which rewrites the links to it", () => {
  it.each([
    ["both happened between two ingests", false],
    ["the move was recorded first", true],
  ])("is revised as the same source when %s: the rewritten attribution link is no edit", async (_when, recordedFirst) => {
    const rig = memoryRig();
    const ingest = await twoNotes(rig);
    await rig.move(A, "archive/A.md");
    // Obsidian's "Automatically update internal links", on every page that links to the note.
    for (const path of await rig.vault.list("wiki")) await rig.vault.process(path, (text) => text.replaceAll("[[notes/A|", "[[archive/A|"));
    if (recordedFirst) expect((await ingest("archive/A.md", [])).upToDate?.movedFrom).toBe(A);
    await rig.move("archive/A.md", "archive/A.md", "# A\n\nVersion two.");
    const report = await ingest("archive/A.md", [page("Shared topic", "archive/A.md", "A's second claim about the topic.")]);
    expect(report.error).toBeNull();
    await expectRevisedUnder(rig, "archive/A.md");
  });
});

describe("a moved note's section the user edited", () => {
  it("stays, as the note's, under its new path, with the new version below it", async () => {
    const rig = memoryRig();
    const ingest = await twoNotes(rig);
    await rig.vault.process(SHARED, (text) => text.replace("A's first claim about the topic.", "A's first claim, as I corrected it."));
    await rig.move(A, "archive/A.md", "# A\n\nVersion two.");
    const report = await ingest("archive/A.md", [page("Shared topic", "archive/A.md", "A's second claim about the topic.")]);
    expect(report.error).toBeNull();
    const shared = await rig.vault.read(SHARED);
    expect(shared).toContain("A's first claim, as I corrected it.");
    expect(shared).toContain("A's second claim about the topic.");
    expect(sectionSources(shared)).toEqual(["archive/A.md", "archive/A.md", B]);
    expect(sourcesOf(shared)).toEqual(["archive/A.md", B]);
  });
});

describe("what is not a move", () => {
  it("leaves a deleted note's sections alone when a note of the same name was ingested in its own right", async () => {
    const rig = memoryRig();
    const ingest = await twoNotes(rig);
    await rig.vault.create("archive/A.md", "# Another A\n\nFirst words.");
    await ingest("archive/A.md", [page("Shared topic", "archive/A.md", "The other A's view.")]);
    await rig.vault.remove(A);
    await rig.vault.process("archive/A.md", () => "# Another A\n\nSecond words.");
    await ingest("archive/A.md", [page("Shared topic", "archive/A.md", "The other A's second view.")]);
    const shared = await rig.vault.read(SHARED);
    expect(shared).toContain("A's first claim about the topic.");
    expect(sectionSources(shared)).toEqual([A, B, "archive/A.md"]);
  });

  it("leaves the sections of a note of the same name that still exists alone", async () => {
    const rig = memoryRig();
    const ingest = await twoNotes(rig);
    await rig.vault.create("archive/A.md", "# Another A\n\nFirst words.");
    await ingest("archive/A.md", [page("Shared topic", "archive/A.md", "The other A's view.")]);
    expect(sectionSources(await rig.vault.read(SHARED))).toEqual([A, B, "archive/A.md"]);
  });
});

describe("a note moved and changed, with the index as catalogue", () => {
  it("finds the pages its old path yielded even when retrieval ranks others first", async () => {
    // Filler pages that retrieval ranks above the note's page, so only the registry names it.
    const { vault, write, index, catalog } = await crowdedCatalogRig({ [A]: "# A\n\nVersion one." });
    const run = (notePath: string, pages: ReturnType<typeof page>[]) =>
      ingestNote({ vault, provider: new ScriptedProvider([pages]), settings: DEFAULT_SETTINGS, write, now: NOW, retriever: index, catalog }, { notePath });
    await run(A, [page("Glacier", A, "Ice moves slowly downhill."), page("Lighthouse", A, "A tower with a lamp.")]);
    await vault.remove(A);
    await vault.create("archive/A.md", "# A\n\nVersion two.");
    await syncIndex(index, vault);
    const report = await run("archive/A.md", [page("Lighthouse", "archive/A.md", "A tower with a lamp, still.")]);
    expect(report.error).toBeNull();
    const glacier = await vault.read("wiki/concepts/Glacier.md");
    expect(glacier).not.toContain("Ice moves slowly downhill.");
    expect(sourcesOf(glacier)).toEqual([]);
    const lighthouse = await vault.read("wiki/concepts/Lighthouse.md");
    expect(sectionSources(lighthouse)).toEqual(["archive/A.md"]);
    expect(lighthouse).toContain("A tower with a lamp, still.");
  });
});
