/**
 * A lint re-ingest whose pages the review kept only some of records the note as partly applied,
 * as an ingest's review does: the next ingest of the note offers the pages left out.
 */
import { describe, expect, it } from "vitest";
import type { WikiPage } from "../../src/core/schemas";
import { runLint, type LintDeps } from "../../src/lint/run-lint";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import type { WriteContext } from "../../src/write/apply";
import { ingestNote, planIngest } from "../../src/wiki/ingest-note";
import { ScriptedProvider, aPage } from "../builders";

const NOW = () => Date.UTC(2026, 11, 1, 6, 0);
const NOTE = "notes/Bridge.md";
const BRIDGE = "wiki/concepts/Golden Gate Bridge.md";
const PAINT = "wiki/concepts/International Orange.md";
const page = (title: string, content: string): WikiPage => aPage().titled(title).withSources(NOTE).withContent(content).build();

describe("a lint re-ingest the review kept part of", () => {
  it("leaves the note partly applied: the next ingest offers only the change left out", async () => {
    const vault = new MemoryVault({ [NOTE]: "# Bridge\n\nIt opened in 1937.\n" });
    const write: WriteContext = { store: new MemoryStateStore(), writer: { kind: "cli", pid: null, host: null } };
    const yields = [page("Golden Gate Bridge", "It opened in 1937 and is painted International Orange."), page("International Orange", "The bridge's paint.")];
    const first = [page("Golden Gate Bridge", "It opened in 1937."), page("International Orange", "A paint.")];
    await ingestNote({ vault, write, provider: new ScriptedProvider([first]), settings: DEFAULT_SETTINGS, now: NOW }, { notePath: NOTE });
    await vault.process(NOTE, () => "# Bridge\n\nIt opened in 1937 and is painted International Orange.\n");
    const provider = new ScriptedProvider([yields]);
    const deps: LintDeps = {
      vault,
      store: write.store,
      write,
      settings: DEFAULT_SETTINGS,
      now: NOW,
      reingest: async (note, signal) => (await planIngest({ vault, write, provider, settings: DEFAULT_SETTINGS, now: NOW }, { notePath: note, ...(signal ? { signal } : {}) })).plan,
    };
    const lint = await runLint(deps, { fix: "all", review: (changes) => Promise.resolve(changes.filter((c) => c.path !== PAINT)) });
    expect(lint.error).toBeNull();
    expect(await vault.read(BRIDGE)).toContain("International Orange.");
    expect(await vault.read(PAINT)).not.toContain("The bridge's paint.");

    const offered: string[][] = [];
    const report = await ingestNote(
      { vault, write, provider, settings: DEFAULT_SETTINGS, now: NOW },
      { notePath: NOTE, review: (plan) => (offered.push(plan.changes.map((c) => c.path)), Promise.resolve(plan.changes.map((c) => c.path))) },
    );
    expect(report.upToDate).toBeNull();
    expect(offered).toEqual([[PAINT]]);
    expect(await vault.read(PAINT)).toContain("The bridge's paint.");
  });
});
