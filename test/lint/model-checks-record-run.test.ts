import { describe, expect, it } from "vitest";
import { humanLintReport } from "../../src/cli/lint-report";
import { runLint, type LintDeps } from "../../src/lint/run-lint";
import { RECORD_LABEL } from "../../src/lint/model-checks";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import type { WriteContext } from "../../src/write/apply";
import { CONTRADICTIONS_KEY, readContradictions } from "../../src/wiki/contradictions";
import { recoverInterruptedRun } from "../../src/write/recover";
import { readHistory } from "../../src/write/run-history";
import { undoLastRun } from "../../src/write/undo";
import { journalKeyOf } from "../../src/write/writer-device";
import { FakeModel, type Reply } from "./fake-model";

const NOW = () => Date.UTC(2026, 11, 2, 9, 0);
const BORN_1815 = "Ada Lovelace was born in 1815 in London.";
const BORN_1816 = "Ada was born in 1816, in London.";
const page = (type: string, title: string, body: string) => `---\ntype: ${type}\ntitle: ${title}\nsources: [notes/ada.md]\n---\n\n${body}\n`;
const WIKI = {
  "notes/ada.md": "Ada.",
  "wiki/entities/Ada Lovelace.md": page("entity", "Ada Lovelace", `${BORN_1815} She wrote the first program.`),
  "wiki/entities/Ada.md": page("entity", "Ada", `${BORN_1816} She worked with Babbage.`),
  "wiki/log.md": "# Log\n",
};
const judge: Reply = () => JSON.stringify({ contradictions: [{ first: BORN_1815, second: BORN_1816 }], duplicate: false, reason: "Two birth years." });

/** A record already there, written by the user's earlier runs, byte for byte (its own spacing). */
const EARLIER = `{"version":1,"contradictions":[{"id":"c-0000000000000000","pages":["wiki/concepts/Tea.md"],"sources":["notes/tea.md","notes/chai.md"],"passages":["Tea is from 1610.","Tea is from 1620."],"status":"open","created":"2026-11-01"}]}\n`;

async function setUp(write: Partial<WriteContext> = {}) {
  const vault = new MemoryVault(WIKI);
  const store = new MemoryStateStore();
  await store.write(CONTRADICTIONS_KEY, EARLIER);
  const context: WriteContext = { store, writer: { kind: "cli", pid: null, host: null }, ...write };
  const deps: LintDeps = { vault, store, provider: new FakeModel(judge), settings: DEFAULT_SETTINGS, write: context, now: NOW };
  return { vault, store, context, deps };
}

describe("lint's model checks record what they find as a run of the write path", () => {
  it("one run, named in the report and the history; undo leaves contradictions.json byte-identical", async () => {
    const { vault, store, context, deps } = await setUp();
    const report = await runLint(deps, { modelChecks: true });
    expect(report.error).toBeNull();
    expect((await readContradictions(store)).map((r) => r.passages)).toEqual([
      ["Tea is from 1610.", "Tea is from 1620."],
      [BORN_1815, BORN_1816],
    ]);
    const { runs } = await readHistory(store);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ operation: "lint", label: RECORD_LABEL, files: [] });
    expect(runs[0]?.state.map((s) => s.key)).toEqual([CONTRADICTIONS_KEY]);
    expect(report.modelChecks?.recordedRun).toBe(runs[0]?.id);
    expect(humanLintReport(report, false)).toContain(`Contradictions recorded as run ${runs[0]?.id ?? "?"} (undo takes it back).`);
    expect(vault.snapshot()["wiki/log.md"]).toContain(`lint | ${RECORD_LABEL}`);

    // Asked again (from the cache), the record already holds it all: no second run.
    const again = await runLint({ ...deps, provider: new FakeModel(judge) }, { modelChecks: true });
    expect(again.modelChecks?.recordedRun).toBeNull();
    expect((await readHistory(store)).runs).toHaveLength(1);

    const undone = await undoLastRun(vault, context, { wikiFolder: "wiki", now: NOW });
    expect(undone?.run.id).toBe(runs[0]?.id);
    expect(await store.read(CONTRADICTIONS_KEY)).toBe(EARLIER);
  });

  it("a crash after the record is written and before the run is done is rolled back at the next start", async () => {
    const crash = new Error("killed");
    const { vault, store, context, deps } = await setUp({
      afterEachWrite: (name) => (name === CONTRADICTIONS_KEY ? Promise.reject(crash) : Promise.resolve()),
    });
    const report = await runLint(deps, { modelChecks: true });
    expect(report.error?.message).toMatch(/^The contradictions found were not recorded: killed/);
    // Killed mid-run: the record holds the new contradiction, the journal is still there.
    expect(await store.read(CONTRADICTIONS_KEY)).not.toBe(EARLIER);
    expect(await store.read(journalKeyOf(context.writer))).not.toBeNull();

    const recovered = await recoverInterruptedRun(vault, { store, writer: context.writer, wikiFolder: "wiki", now: NOW });
    expect(recovered).toMatchObject({ status: "done", journal: { status: "rolled-back" } });
    expect(await store.read(CONTRADICTIONS_KEY)).toBe(EARLIER);
    expect(vault.snapshot()["wiki/log.md"]).toBe("# Log\n");
    expect((await readHistory(store)).runs).toEqual([]);

    // The verdict was cached, so the next lint records it again without asking the model.
    const model = new FakeModel(judge);
    const next = await runLint({ ...deps, provider: model, write: { store, writer: context.writer } }, { modelChecks: true });
    expect(model.calls).toHaveLength(0);
    expect(next.modelChecks?.recordedRun).not.toBeNull();
    expect((await readContradictions(store)).map((r) => r.passages[0])).toEqual(["Tea is from 1610.", BORN_1815]);
  });
});
