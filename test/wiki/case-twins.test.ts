/**
 * On a case-sensitive file system (Linux) "Note.md" and "note.md" are two notes: ingesting one is
 * never a rename of the other, and neither loses its registry entry. On a case-insensitive one
 * (macOS, Windows) they are one file, and a change of case is a rename (case-only-rename.test.ts).
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { NodeVault } from "../../src/vault/node-vault";
import type { VaultPort } from "../../src/vault/vault-port";
import type { WriteContext } from "../../src/write/apply";
import { ingestNote } from "../../src/wiki/ingest-note";
import { SourceRegistry } from "../../src/wiki/source-registry";
import { existsApart } from "../../src/wiki/spelling-twins";
import { aPage, ScriptedProvider } from "../builders";
import { CaseInsensitiveVault } from "../helpers/case-insensitive-vault";
import { makeVault } from "../helpers/temp-vault";

const NOW = () => Date.parse("2026-12-01T06:00:00Z");
const page = (source: string, content: string) => aPage().titled("Glacier").withSources(source).withContent(content).build();

/** A vault on disk, when the disk tells case apart (as Linux file systems do). */
function diskVault(): VaultPort | null {
  const root = makeVault({ "probe.md": "" });
  return existsSync(join(root, "PROBE.md")) ? null : new NodeVault(root);
}

const caseSensitive: [string, () => VaultPort | null][] = [
  ["the memory vault", () => new MemoryVault()],
  ["the vault on disk", diskVault],
];

describe.each(caseSensitive)("two notes whose names differ only in case, in %s", (_where, makeVault) => {
  async function rig() {
    const vault = makeVault();
    if (!vault) return null;
    const write: WriteContext = { store: new MemoryStateStore(), writer: { kind: "cli", pid: null, host: null } };
    const ingest = (notePath: string, pages: ReturnType<typeof page>[]) =>
      ingestNote({ vault, provider: new ScriptedProvider([pages]), settings: DEFAULT_SETTINGS, write, now: NOW }, { notePath });
    const notes = async () => Object.keys((await new SourceRegistry(write.store).load()).notes).sort();
    return { vault, ingest, notes };
  }

  it("with the same text: the second is ingested in its own right, not taken for a rename", async (ctx) => {
    const r = await rig();
    if (!r) return ctx.skip();
    await r.vault.create("notes/Note.md", "# Note\n\nGlaciers move slowly.");
    await r.vault.create("notes/note.md", "# Note\n\nGlaciers move slowly.");
    expect((await r.ingest("notes/Note.md", [page("notes/Note.md", "Glaciers move slowly.")])).error).toBeNull();
    const report = await r.ingest("notes/note.md", [page("notes/note.md", "Glaciers move slowly.")]);
    expect(report.error).toBeNull();
    expect(report.upToDate).toBeNull();
    expect(await r.notes()).toEqual(["notes/Note.md", "notes/note.md"]);
  });

  it("with different texts: the second keeps the first's entry", async (ctx) => {
    const r = await rig();
    if (!r) return ctx.skip();
    await r.vault.create("notes/Note.md", "# Note\n\nGlaciers move slowly.");
    expect((await r.ingest("notes/Note.md", [page("notes/Note.md", "Glaciers move slowly.")])).error).toBeNull();
    await r.vault.create("notes/note.md", "# other\n\nGlaciers calve icebergs.");
    expect((await r.ingest("notes/note.md", [page("notes/note.md", "Glaciers calve icebergs.")])).error).toBeNull();
    expect(await r.notes()).toEqual(["notes/Note.md", "notes/note.md"]);
  });

  it("renamed in case for real (the old spelling gone), is a rename", async (ctx) => {
    const r = await rig();
    if (!r) return ctx.skip();
    await r.vault.create("notes/Note.md", "# Note\n\nGlaciers move slowly.");
    expect((await r.ingest("notes/Note.md", [page("notes/Note.md", "Glaciers move slowly.")])).error).toBeNull();
    await r.vault.create("notes/note.md", "# Note\n\nGlaciers move slowly.");
    await r.vault.remove("notes/Note.md");
    expect((await r.ingest("notes/note.md", [])).upToDate?.movedFrom).toBe("notes/Note.md");
    expect(await r.notes()).toEqual(["notes/note.md"]);
  });
});

describe("existsApart", () => {
  it("tells a second file spelled in another case from the note itself, on both kinds of file system", async () => {
    const sensitive = new MemoryVault({ "notes/Note.md": "a", "notes/note.md": "b", "Notes/x.md": "c", "notes/x.md": "d" });
    expect(await existsApart(sensitive, "notes/Note.md", "notes/note.md")).toBe(true);
    expect(await existsApart(sensitive, "notes/NOTE.md", "notes/note.md")).toBe(false);
    expect(await existsApart(sensitive, "notes/note.md", "notes/note.md")).toBe(false);
    expect(await existsApart(sensitive, "Notes/x.md", "notes/x.md")).toBe(true);
    expect(await existsApart(sensitive, "notes/other.md", "notes/note.md")).toBe(false);
    const insensitive = new CaseInsensitiveVault({ "notes/note.md": "b", "Notes2/Cafe\u0301.md": "c" });
    expect(await existsApart(insensitive, "notes/Note.md", "notes/note.md")).toBe(false);
    expect(await existsApart(insensitive, "notes2/café.md", "Notes2/Cafe\u0301.md")).toBe(false);
    expect(await existsApart(insensitive, "Notes2/Café.md", "notes2/café.md")).toBe(false);
    expect(await existsApart(insensitive, "notes/note.md", "archive/note.md")).toBe(true);
    // The note addressed in another case than its file's own: still the one file.
    expect(await existsApart(insensitive, "notes/note.md", "notes/NOTE.md")).toBe(false);
  });

  it("reads the disk's own listing: two files on Linux, one renamed file elsewhere", async (ctx) => {
    const root = makeVault({ "notes/Note.md": "a" });
    const vault = new NodeVault(root);
    if (existsSync(join(root, "notes/NOTE.md"))) {
      expect(await existsApart(vault, "notes/Note.md", "notes/note.md")).toBe(false);
      return ctx.skip();
    }
    writeFileSync(join(root, "notes/note.md"), "b");
    expect(await existsApart(vault, "notes/Note.md", "notes/note.md")).toBe(true);
    expect(await existsApart(vault, "notes/NOTE.md", "notes/note.md")).toBe(false);
  });
});
