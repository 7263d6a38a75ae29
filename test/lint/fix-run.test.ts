/**
 * A lint run's fixes are ONE run of the write path, a stale note's re-ingest included: one review,
 * one log.md entry, and one undo brings back every byte of the vault and Synapse's records (the
 * note is stale again).
 */
import { describe, expect, it } from "vitest";
import type { WikiPage } from "../../src/core/schemas";
import { combineChanges } from "../../src/lint/fix-run";
import { humanLintReport } from "../../src/cli/lint-report";
import { runLint, type LintDeps } from "../../src/lint/run-lint";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import type { WriteContext } from "../../src/write/apply";
import { ingestNote, planIngest } from "../../src/wiki/ingest-note";
import type { PlannedChange } from "../../src/write/planned-change";
import { readHistory } from "../../src/write/run-history";
import { undoLastRun } from "../../src/write/undo";
import { ScriptedProvider, aPage } from "../builders";

const NOW = () => Date.UTC(2026, 11, 1, 0, 30);
const NOTE = "notes/Bridge.md";
const PAGE = "wiki/concepts/Golden Gate Bridge.md";
const USERS = "wiki/concepts/My page.md";
const from = (content: string): WikiPage => aPage().titled("Golden Gate Bridge").withSources(NOTE).withContent(content).build();

/** The registry of ingested notes and the contradictions record, as stored. */
async function records(store: MemoryStateStore): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = { contradictions: await store.read("contradictions.json") };
  for (const key of await store.list("sources")) out[key] = await store.read(key);
  return out;
}

async function files(vault: MemoryVault): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of await vault.list("")) if (path !== "wiki/log.md") out[path] = await vault.read(path);
  return out;
}

async function staleWiki() {
  const vault = new MemoryVault({ [NOTE]: "# Bridge\n\nIt opened in 1937.\n" });
  const store = new MemoryStateStore();
  const write: WriteContext = { store, writer: { kind: "cli", pid: null, host: null } };
  await ingestNote({ vault, write, provider: new ScriptedProvider([[from("It opened in 1937.")]]), settings: DEFAULT_SETTINGS, now: NOW }, { notePath: NOTE });
  // A page of the user's with a link to nothing (a safe fix: a stub), and the note changes.
  await vault.create(USERS, "---\ntype: concept\ntitle: My page\nsources: [notes/Bridge.md]\n---\n\nSee [[Golden Gate Bridge]] and [[Fog]].\n");
  await vault.process(NOTE, () => "# Bridge\n\nIt opened in 1937 and is painted orange.\n");
  const reingested = new ScriptedProvider([[from("It opened in 1937 and is painted International Orange.")]]);
  const deps: LintDeps = {
    vault,
    store,
    write,
    settings: DEFAULT_SETTINGS,
    now: NOW,
    reingest: async (note, signal) => (await planIngest({ vault, write, provider: reingested, settings: DEFAULT_SETTINGS, now: NOW }, { notePath: note, ...(signal ? { signal } : {}) })).plan,
  };
  return { vault, store, write, deps, reingested };
}

describe("a lint run's fixes, re-ingest included, are one run", () => {
  it("fixes all through one review and one log entry, and one undo restores every byte and the note's staleness", async () => {
    const { vault, store, write, deps } = await staleWiki();
    const before = await files(vault);
    const stateBefore = await records(store);
    const runsBefore = (await readHistory(store)).runs.length;
    const first = await runLint(deps);
    expect(first.findings.map((f) => f.check).sort()).toEqual(["dangling-link", "index", "orphan", "stale", "stale"]);
    // index.md and log.md are no link's near miss: "Fog" gets a stub, not "Point [[Fog]] at [[log]]".
    expect(first.findings.find((f) => f.check === "dangling-link")?.fixes.map((f) => f.kind)).toEqual(["create-stub"]);

    const reviewed: string[][] = [];
    const fixed = await runLint(deps, { fix: "all", review: (changes) => (reviewed.push(changes.map((c) => c.path)), Promise.resolve(changes)) });
    expect(fixed.error).toBeNull();
    expect(reviewed).toHaveLength(1);
    expect(new Set(reviewed[0])).toEqual(new Set(["wiki/concepts/Fog.md", "wiki/index.md", PAGE]));
    expect(await vault.read(PAGE)).toContain("International Orange");
    expect(await vault.read("wiki/concepts/Fog.md")).toContain("A stub");
    expect(await vault.read("wiki/index.md")).toContain("[[wiki/concepts/Fog|Fog]]");
    expect(fixed.findings.filter((f) => f.check === "stale" || f.check === "dangling-link")).toEqual([]);
    const { runs } = await readHistory(store);
    expect(runs).toHaveLength(runsBefore + 1);
    expect(runs[0]).toMatchObject({ operation: "lint", label: `${fixed.fixed.length} fixes` });
    // The re-ingested note's registry entry (its notes shard, its hash listed under the new text, no longer under the old).
    expect(runs[0]?.state.map((s) => s.key).sort()).toEqual([expect.stringMatching(/^sources\/hashes-/), expect.stringMatching(/^sources\/hashes-/), expect.stringMatching(/^sources\/notes-/)]);
    const log = await vault.read("wiki/log.md");
    expect(log.match(/^## \[.*\] lint \|/gm)).toHaveLength(1);
    expect(log).not.toMatch(/^## \[.*\] ingest \| .*\n[\s\S]*## \[.*\] ingest \|/m);
    expect(log).toContain("re-ingested");

    const undone = await undoLastRun(vault, write, { wikiFolder: "wiki", now: NOW });
    expect(undone?.run.operation).toBe("lint");
    expect(await files(vault)).toEqual(before);
    expect(await records(store)).toEqual(stateBefore);
    expect((await runLint(deps)).findings.map((f) => f.check).sort()).toEqual(["dangling-link", "index", "orphan", "stale", "stale"]);
  });

  it("a re-ingest whose pages the review declines records nothing: the note stays stale", async () => {
    const { vault, deps } = await staleWiki();
    const report = await runLint(deps, { fix: "all", review: (changes) => Promise.resolve(changes.filter((c) => c.path !== PAGE)) });
    expect(await vault.read(PAGE)).not.toContain("International Orange");
    expect(report.findings.filter((f) => f.check === "stale" && f.page === PAGE)).toHaveLength(1);
  });

  it("a review that keeps nothing writes nothing and reports no fix as made", async () => {
    const { vault, deps } = await staleWiki();
    const before = await files(vault);
    const report = await runLint(deps, { fix: "all", review: () => Promise.resolve([]) });
    expect(report.error).toBeNull();
    expect(report.fixed).toEqual([]);
    expect(await files(vault)).toEqual(before);
  });

  it("reports as made only the fixes whose files the review kept", async () => {
    const { deps } = await staleWiki();
    const report = await runLint(deps, { fix: "all", review: (changes) => Promise.resolve(changes.filter((c) => c.path !== PAGE)) });
    expect(report.fixed.map((f) => f.fix)).not.toContain('Re-ingest "Bridge"');
    expect(report.fixed.length).toBeGreaterThan(0);
    const all = await runLint((await staleWiki()).deps, { fix: "all" });
    expect(all.fixed.filter((f) => f.fix === 'Re-ingest "Bridge"')).toHaveLength(2);
  });

  it("with --dry-run, lists the re-ingest without calling the ingest backend or writing", async () => {
    const { vault, deps, reingested } = await staleWiki();
    const before = await files(vault);
    const calls = reingested.generateCalls.length;
    const report = await runLint(deps, { fix: "all", dryRun: true });
    expect(report.fixed.filter((f) => f.fix === 'Re-ingest "Bridge"')).toHaveLength(2);
    expect(reingested.generateCalls.length).toBe(calls);
    expect(await files(vault)).toEqual(before);
  });

  it("counts the re-ingest's tokens and cost in the lint's usage, also when the review declines its pages", async () => {
    const priced = () => new ScriptedProvider([[from("It opened in 1937 and is painted International Orange.")]], { model: "claude-haiku-4-5" }, 250);
    const withUsage = async () => {
      const setup = await staleWiki();
      const provider = priced();
      const deps: LintDeps = {
        ...setup.deps,
        reingest: async (note, signal) => (await planIngest({ vault: setup.vault, write: setup.write, provider, settings: DEFAULT_SETTINGS, now: NOW }, { notePath: note, ...(signal ? { signal } : {}) })).plan,
      };
      return { ...setup, deps, provider };
    };
    const { deps, provider } = await withUsage();
    const report = await runLint(deps, { fix: "all" });
    expect(report.error).toBeNull();
    // One analyse and one generate call, 250 tokens each as the provider reported them.
    expect(provider.analyzeCalls.length + provider.generateCalls.length).toBe(2);
    // The scripted backend runs on this computer, but a price the user gave its model is still shown.
    expect(report.usage).toEqual({ inputTokens: 500, outputTokens: 0, costUsd: 500 / 1_000_000, local: true });
    expect(humanLintReport(report, false)).toContain("Used 500 tokens in and 0 out, about $0.0005.");

    const declined = await withUsage();
    const kept = await runLint(declined.deps, { fix: "all", review: (changes) => Promise.resolve(changes.filter((c) => c.path !== PAGE)) });
    expect(kept.fixed.map((f) => f.fix)).not.toContain('Re-ingest "Bridge"');
    expect(kept.usage.inputTokens).toBe(500);

    // Without fixes nothing is planned and nothing spent.
    expect((await runLint((await withUsage()).deps)).usage).toEqual({ inputTokens: 0, outputTokens: 0, costUsd: 0 });
  });

  it("a failed re-ingest writes nothing at all, the other fixes included", async () => {
    const { vault, deps } = await staleWiki();
    const before = await files(vault);
    const report = await runLint({ ...deps, reingest: () => Promise.reject(new Error("The ingest backend is down.")) }, { fix: "all" });
    expect(report.error?.message).toBe("The ingest backend is down.");
    expect(await files(vault)).toEqual(before);
  });
});

describe("combineChanges", () => {
  const edit = (path: string, tail: string): PlannedChange => ({ path, type: "concept", title: path, action: "updated", update: (c) => ({ content: `${c}${tail}`, action: "updated" }) });
  it("chains edits of one file in order, and keeps the first of changes that cannot be chained", () => {
    const removal: PlannedChange = { path: "b.md", type: "concept", title: "b", action: "removed", remove: {} };
    const { changes, dropped } = combineChanges([edit("a.md", "1"), removal, edit("a.md", "2"), edit("b.md", "x")]);
    expect(changes.map((c) => c.path)).toEqual(["a.md", "b.md"]);
    expect(changes[0]?.update?.("0").content).toBe("012");
    expect(changes[1]?.remove).toEqual({});
    expect(dropped).toEqual(["b.md"]);
  });
});
