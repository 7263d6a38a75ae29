import { describe, expect, it } from "vitest";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { applyPlan, type ApplyRun, type PlannedChange } from "../../src/write/apply";
import { JOURNAL_KEY } from "../../src/write/journal";
import { recoverInterruptedRun } from "../../src/write/recover";
import { readHistory, recordRun } from "../../src/write/run-history";
import { undoLastRun } from "../../src/write/undo";
import { JournalSchema } from "../../src/write/write-records";

const NOW = () => Date.UTC(2026, 10, 30, 18, 0);
const writer = { kind: "cli" as const, pid: 5, host: "h" };
const run = (store: MemoryStateStore, extra: Partial<ApplyRun> = {}): ApplyRun => ({ store, writer, operation: "ingest", label: "Note", wikiFolder: "wiki", now: NOW, logDetails: ["provider: offline"], ...extra });
const create = (path: string, type: string, title: string): PlannedChange => ({ path, type, title, action: "created", create: `# ${title}\n` });

/** A big index.md the user has written in: CRLF line ends, an annotation, non-ASCII titles, no final newline. */
function bigIndex(pages: number): string {
  const lines = ["# My wiki", "", "Written by me — keep this.", "", "## Sources", ""];
  for (let i = 0; i < pages; i++) lines.push(`- [[wiki/sources/Source ${String(i).padStart(5, "0")}|Source ${String(i).padStart(5, "0")}]]${i === 7 ? " ← mine, see [[Elsewhere]]" : ""}`);
  lines.push("", "## Entities", "", "- [[wiki/entities/Ærøskøbing|Ærøskøbing]]", "- [[wiki/entities/Zürich|Zürich]]", "", "## Concepts", "", "- [[wiki/concepts/Öl|Öl]]");
  return lines.join("\r\n");
}

const LOG = "# Synapse log\n\nOne entry per run.\n";

/** A run that creates pages of three types (three index.md hunks) and retitles a listed page. */
function ingestChanges(): PlannedChange[] {
  return [
    create("wiki/sources/Note.md", "source", "Note"),
    create("wiki/entities/Ada Lovelace.md", "entity", "Ada Lovelace"),
    create("wiki/concepts/Analytical Engine.md", "concept", "Analytical Engine"),
    { path: "wiki/sources/Source 00007.md", type: "source", title: "Source seven", action: "updated", update: () => ({ content: "# Source seven\n", action: "updated" }) },
  ];
}

function vaultWith(index: string, log = LOG): MemoryVault {
  return new MemoryVault({ "wiki/index.md": index, "wiki/log.md": log, "wiki/sources/Source 00007.md": "# Source 00007\n" });
}

describe("index.md and log.md in the journal and the history", () => {
  it("are recorded as the lines replaced and the text appended, not as copies of the files", async () => {
    const index = bigIndex(20_000);
    const vault = vaultWith(index);
    const store = new MemoryStateStore();
    let journalText = "";
    await applyPlan(vault, ingestChanges(), {
      ...run(store),
      afterEachWrite: async (path) => {
        if (path === "wiki/index.md") journalText = (await store.read(JOURNAL_KEY)) ?? "";
      },
    });
    const journal = JournalSchema.parse(JSON.parse(journalText));
    expect(journal.entries.map((e) => e.kind)).toEqual(["write", "write", "write", "write", "lines", "append"]);
    expect(journalText.length).toBeLessThan(3_000);
    const [record] = (await readHistory(store)).runs;
    const historyText = JSON.stringify(record);
    expect(historyText.length).toBeLessThan(3_000);
    expect(record?.files.find((f) => f.path === "wiki/index.md")).toMatchObject({ type: "index", action: "updated", lines: { beforeLength: index.length } });
  });

  it("undo after an in-place index.md edit and a log append gives index.md and the pages their exact bytes back", async () => {
    const index = bigIndex(300);
    const vault = vaultWith(index);
    const store = new MemoryStateStore();
    const before = vault.snapshot();
    await applyPlan(vault, ingestChanges(), run(store));
    const after = vault.snapshot();
    expect(after["wiki/index.md"]).toContain("[[wiki/entities/Ada Lovelace|Ada Lovelace]]\r\n");
    expect(after["wiki/index.md"]).toContain("|Source seven]] ← mine, see [[Elsewhere]]\r\n");
    expect(after["wiki/log.md"]?.startsWith(LOG)).toBe(true);

    await undoLastRun(vault, { store, writer }, { wikiFolder: "wiki", now: NOW });
    const undone = vault.snapshot();
    const { "wiki/log.md": log, ...rest } = undone;
    const { "wiki/log.md": logBefore, ...restBefore } = before;
    expect(rest).toEqual(restBefore);
    expect(undone["wiki/index.md"]).toBe(index);
    // log.md only grows: the ingest's entry stays and the undo is appended after it.
    expect(log?.startsWith(after["wiki/log.md"] ?? "?")).toBe(true);
    expect(log?.startsWith(logBefore ?? "?")).toBe(true);
    expect(log).toMatch(/## \[2026-11-30\] undo \| Note\n/);
  });

  it("undo keeps the user's index.md edits made since, and takes out the lines of the pages the run created", async () => {
    const index = bigIndex(50);
    const vault = vaultWith(index);
    const store = new MemoryStateStore();
    await applyPlan(vault, ingestChanges(), run(store));
    await vault.process("wiki/index.md", (text) => text.replace("Written by me — keep this.", "Written by me — and edited after the ingest."));
    await undoLastRun(vault, { store, writer }, { wikiFolder: "wiki", now: NOW });
    const text = vault.snapshot()["wiki/index.md"] ?? "";
    expect(text).toContain("edited after the ingest");
    expect(text).not.toContain("Ada Lovelace");
    expect(text).not.toContain("Analytical Engine");
    expect(text).not.toContain("wiki/sources/Note|");
    expect(text).toContain("|Source seven]] ← mine, see [[Elsewhere]]\r\n");
    expect(text.split("\r\n")).toHaveLength(index.split("\r\n").length);
  });

  it("undo of a run recorded before line records (whole index.md before and after) still restores it", async () => {
    const index = "# Mine\n\n## Concepts\n\n- [[wiki/concepts/Old|Old]]\n";
    const vault = new MemoryVault({ "wiki/index.md": `${index}- [[wiki/concepts/New|New]]\n`, "wiki/concepts/New.md": "new", "wiki/log.md": LOG });
    const store = new MemoryStateStore();
    await recordRun(store, {
      version: 1,
      id: "20261130T170000000Z-old000",
      operation: "ingest",
      label: "Earlier",
      at: NOW() - 3_600_000,
      writer,
      files: [
        { path: "wiki/concepts/New.md", type: "concept", title: "New", action: "created", before: null, after: "new" },
        { path: "wiki/index.md", type: "index", title: "Wiki index", action: "updated", before: index, after: `${index}- [[wiki/concepts/New|New]]\n` },
      ],
      state: [],
      log: null,
      undoes: null,
    });
    await undoLastRun(vault, { store, writer }, { wikiFolder: "wiki", now: NOW });
    expect(vault.snapshot()["wiki/index.md"]).toBe(index);
    expect(vault.snapshot()["wiki/concepts/New.md"]).toBeUndefined();
  });

  /** Plays the run until `writes` files are written, then "crashes" (the journal and a dead writer's lock stay). */
  async function crashAfter(vault: MemoryVault, store: MemoryStateStore, writes: number): Promise<void> {
    const crash = new Error("crash");
    let n = 0;
    await applyPlan(vault, ingestChanges(), {
      ...run(store),
      afterEachWrite: async () => {
        if (++n === writes) throw crash;
      },
    }).catch((e: unknown) => {
      if (e !== crash) throw e;
    });
  }

  it.each([4, 5, 6])("recovery after a crash following write %i of 6 (pages, index.md, log.md) restores the exact bytes", async (writes) => {
    // log.md already ends with the very entry this run appends (the same note, the same day): only
    // the appended copy goes.
    const entry = "\n## [2026-11-30] ingest | Note\n\n- created [[wiki/sources/Note|Note]]\n- created [[wiki/entities/Ada Lovelace|Ada Lovelace]]\n- created [[wiki/concepts/Analytical Engine|Analytical Engine]]\n- updated [[wiki/sources/Source 00007|Source seven]]\n- provider: offline\n";
    const vault = vaultWith(bigIndex(2_000), `${LOG}${entry}`);
    const store = new MemoryStateStore();
    const initial = vault.snapshot();
    await crashAfter(vault, store, writes);
    expect(vault.snapshot()).not.toEqual(initial);
    if (writes === 6) expect(vault.snapshot()["wiki/log.md"]).toBe(`${LOG}${entry}${entry}`);
    const report = await recoverInterruptedRun(vault, { store, writer: { kind: "cli", pid: 6, host: "h" }, lock: { isAlive: (pid) => pid === 6 }, wikiFolder: "wiki" });
    expect(report).toMatchObject({ status: "done", journal: { status: "rolled-back", kept: [] } });
    expect(vault.snapshot()).toEqual(initial);
  });

  it("recovery before the log append does not take out an identical earlier entry", async () => {
    const entry = "\n## [2026-11-30] ingest | Note\n\n- created [[wiki/sources/Note|Note]]\n- created [[wiki/entities/Ada Lovelace|Ada Lovelace]]\n- created [[wiki/concepts/Analytical Engine|Analytical Engine]]\n- updated [[wiki/sources/Source 00007|Source seven]]\n- provider: offline\n";
    const vault = vaultWith(bigIndex(10), `${LOG}${entry}`);
    const store = new MemoryStateStore();
    const initial = vault.snapshot();
    await crashAfter(vault, store, 5); // index.md written, log.md not yet
    await recoverInterruptedRun(vault, { store, writer: { kind: "cli", pid: 6, host: "h" }, lock: { isAlive: (pid) => pid === 6 }, wikiFolder: "wiki" });
    expect(vault.snapshot()["wiki/log.md"]).toBe(`${LOG}${entry}`);
    expect(vault.snapshot()).toEqual(initial);
  });

  it("recovery leaves an index.md edited after the crash as it is, and names it", async () => {
    const vault = vaultWith(bigIndex(10));
    const store = new MemoryStateStore();
    const initial = vault.snapshot();
    await crashAfter(vault, store, 5);
    await vault.process("wiki/index.md", (text) => `${text}\r\n- my own line`);
    const edited = vault.snapshot()["wiki/index.md"];
    const report = await recoverInterruptedRun(vault, { store, writer: { kind: "cli", pid: 6, host: "h" }, lock: { isAlive: (pid) => pid === 6 }, wikiFolder: "wiki" });
    expect(report).toMatchObject({ journal: { status: "rolled-back", kept: ["wiki/index.md"] } });
    expect(vault.snapshot()).toEqual({ ...initial, "wiki/index.md": edited });
  });
});
