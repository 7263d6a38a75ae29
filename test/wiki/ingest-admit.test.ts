/**
 * The ingest's first stage on its own: which notes it lets in and which it finds up to date, with a
 * registry made by real ingests (ingestNote) into a vault in memory.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, type Settings } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import type { VaultPort } from "../../src/vault/vault-port";
import type { WriteContext } from "../../src/write/write-context";
import { undoLastRun } from "../../src/write/undo";
import { admitNote } from "../../src/wiki/ingest/admit";
import { startIngest } from "../../src/wiki/ingest/run";
import type { IngestRequest } from "../../src/wiki/ingest-types";
import { ingestNote } from "../../src/wiki/ingest-note";
import { SourceRegistry } from "../../src/wiki/source-registry";
import { SOURCE_PATH, ScriptedProvider, aPage } from "../builders";

const NOTE = "# Source note\n\nA note about the Example concept, written for tests.\n";
const MOVED = "archive/Source note.md";

function settings(overrides: Partial<Settings> = {}): Settings {
  return { ...structuredClone(DEFAULT_SETTINGS), ...overrides };
}

/** A vault whose note was ingested once (its registry entry recorded by that run). */
async function ingested(): Promise<{ vault: MemoryVault; write: WriteContext }> {
  const vault = new MemoryVault({ [SOURCE_PATH]: NOTE });
  const write: WriteContext = { store: new MemoryStateStore(), writer: { kind: "cli", pid: null, host: null } };
  const provider = new ScriptedProvider([[aPage().titled("Example concept").withContent("Examples explain things. See [[Source note]].").build()]]);
  const report = await ingestNote({ vault, provider, settings: settings(), write }, { notePath: SOURCE_PATH });
  expect(report.converged).toBe(true);
  return { vault, write };
}

function admit(vault: VaultPort, write: WriteContext | undefined, request: Partial<IngestRequest> = {}, overrides: Partial<Settings> = {}) {
  const deps = { vault, provider: new ScriptedProvider([]), settings: settings(overrides), ...(write ? { write } : {}) };
  return admitNote(startIngest(deps, { notePath: SOURCE_PATH, ...request }));
}

describe("admitting a note to an ingest", () => {
  it("finds an unchanged note up to date, and lets it in when forced, changed, or for another wiki folder", async () => {
    const { vault, write } = await ingested();
    expect(await admit(vault, write)).toMatchObject({ verdict: "up_to_date", upToDate: { movedFrom: null } });
    expect(await admit(vault, write, { force: true })).toMatchObject({ verdict: "ingest", note: { notePath: SOURCE_PATH, text: NOTE } });
    expect(await admit(vault, write, {}, { wikiFolder: "other wiki" })).toMatchObject({ verdict: "ingest" });
    await vault.process(SOURCE_PATH, (text) => `${text}\nA second thought.\n`);
    expect(await admit(vault, write)).toMatchObject({ verdict: "ingest", note: { text: `${NOTE}\nA second thought.\n` } });
  });

  it("lets a note in again once the run that recorded it was undone", async () => {
    const { vault, write } = await ingested();
    await undoLastRun(vault, write, { wikiFolder: "wiki" });
    expect(await admit(vault, write)).toMatchObject({ verdict: "ingest" });
  });

  it("finds a moved note up to date by its content and moves its record, but not in a dry run", async () => {
    const { vault, write } = await ingested();
    await vault.create(MOVED, NOTE);
    await vault.remove(SOURCE_PATH);
    const registry = new SourceRegistry(write.store);
    expect(await admit(vault, write, { notePath: MOVED, dryRun: true })).toMatchObject({ verdict: "up_to_date", upToDate: { movedFrom: SOURCE_PATH } });
    expect(await registry.entry(MOVED)).toBeNull();
    expect(await admit(vault, write, { notePath: MOVED })).toMatchObject({ verdict: "up_to_date", upToDate: { movedFrom: SOURCE_PATH } });
    expect(await registry.entry(MOVED)).not.toBeNull();
    expect(await registry.entry(SOURCE_PATH)).toBeNull();
  });

  it("refuses a note in an excluded folder before reading it", async () => {
    const vault = new MemoryVault({ [SOURCE_PATH]: NOTE });
    const reads: string[] = [];
    const watched: VaultPort = Object.assign(Object.create(vault) as MemoryVault, {
      read: (path: string) => (reads.push(path), vault.read(path)),
      readBytes: (path: string) => (reads.push(path), vault.readBytes(path)),
    });
    await expect(admit(watched, undefined, {}, { excludedFolders: ["notes"] })).rejects.toMatchObject({ kind: "perimeter" });
    expect(reads).toEqual([]);
  });

  it("lets every note in, unhashed, without state to know earlier ingests by", async () => {
    const vault = new MemoryVault({ [SOURCE_PATH]: NOTE });
    expect(await admit(vault, undefined)).toEqual({ verdict: "ingest", note: { notePath: SOURCE_PATH, text: NOTE, fingerprint: null } });
  });
});
