/**
 * Review before apply, in the core: the hook sees every change with its before, after and diff;
 * only what it selects is written, and index.md, log.md and the source registry reflect only that.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { ingestNote } from "../../src/wiki/ingest-note";
import { needsReview, type ReviewPlan, type ReviewSelection } from "../../src/wiki/review";
import { SourceRegistry } from "../../src/wiki/source-registry";
import { SOURCE_PATH, ScriptedProvider, aPage } from "../builders";

const NOTE = "# Source note\n\nA note about the Example concept and Bees.\n";
const NOW = () => Date.UTC(2026, 10, 29, 12, 0);

const concept = (content = "Examples explain things. See [[Source note]].") => aPage().titled("Example concept").withContent(content).build();
const bees = aPage().titled("Bees").ofType("entity").withContent("Bees, from [[Source note]].").build();

/** Every file of the vault, for "nothing written" assertions. */
async function filesOf(vault: MemoryVault): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of await vault.list("")) out[path] = await vault.read(path);
  return out;
}

async function ingestWith(vault: MemoryVault, state: MemoryStateStore, pages: ReturnType<typeof concept>[], review: (plan: ReviewPlan) => ReviewSelection | Promise<ReviewSelection>) {
  const seen: ReviewPlan[] = [];
  const report = await ingestNote(
    { vault, provider: new ScriptedProvider([pages]), settings: DEFAULT_SETTINGS, state, now: NOW },
    {
      notePath: SOURCE_PATH,
      force: true,
      review: (plan) => {
        seen.push(plan);
        return Promise.resolve(review(plan));
      },
    },
  );
  return { report, seen };
}

describe("review before apply", () => {
  it("offers every change with its content before and after and a unified diff", async () => {
    const vault = new MemoryVault({ [SOURCE_PATH]: NOTE });
    const state = new MemoryStateStore();
    await ingestWith(vault, state, [concept()], (plan) => plan.changes.map((c) => c.path));
    const { seen } = await ingestWith(vault, state, [concept("Examples explain things better. See [[Source note]]."), bees], () => []);
    const plan = seen[0] as ReviewPlan;
    expect(plan.notePath).toBe(SOURCE_PATH);
    expect(plan.changes.map((c) => `${c.action} ${c.path}`)).toEqual(["updated wiki/concepts/Example concept.md", "created wiki/entities/Bees.md"]);
    const [updated, created] = plan.changes;
    expect(updated?.before).toContain("Examples explain things. See");
    expect(updated?.after).toContain("Examples explain things better.");
    expect(updated?.diff).toContain("-Examples explain things. See [[Source note]].\n+Examples explain things better. See [[Source note]].");
    expect(created?.before).toBeNull();
    expect(created?.diff).toMatch(/^--- \/dev\/null\n\+\+\+ b\/wiki\/entities\/Bees\.md\n/);
    expect(needsReview("changes", plan)).toBe(true);
  });

  it("applies only the selected changes; index.md and log.md list only them", async () => {
    const vault = new MemoryVault({ [SOURCE_PATH]: NOTE });
    const state = new MemoryStateStore();
    const { report } = await ingestWith(vault, state, [concept(), bees], () => ["wiki/entities/Bees.md"]);
    expect(report.pages.map((p) => p.path)).toEqual(["wiki/entities/Bees.md"]);
    expect(report.declined.map((p) => `${p.action} ${p.path}`)).toEqual(["created wiki/concepts/Example concept.md"]);
    expect(await vault.stat("wiki/concepts/Example concept.md")).toBeNull();
    const index = await vault.read("wiki/index.md");
    expect(index).toContain("Bees");
    expect(index).not.toContain("Example concept");
    const log = await vault.read("wiki/log.md");
    expect(log).toContain("- created [[wiki/entities/Bees|Bees]]");
    expect(log).not.toContain("Example concept");
    expect((await new SourceRegistry(state).entry(SOURCE_PATH))?.pages).toEqual(["wiki/entities/Bees.md"]);
  });

  it("applying none writes nothing at all and records nothing", async () => {
    const vault = new MemoryVault({ [SOURCE_PATH]: NOTE });
    const state = new MemoryStateStore();
    const before = await filesOf(vault);
    const { report } = await ingestWith(vault, state, [concept(), bees], () => []);
    expect(report).toMatchObject({ converged: true, pages: [] });
    expect(report.declined).toHaveLength(2);
    expect(await filesOf(vault)).toEqual(before);
    expect(state.entries.size).toBe(0);
  });

  it("writes exactly what was shown, and merges instead when the page changed during the review", async () => {
    const vault = new MemoryVault({ [SOURCE_PATH]: NOTE });
    const state = new MemoryStateStore();
    await ingestWith(vault, state, [concept()], (plan) => plan.changes.map((c) => c.path));
    const path = "wiki/concepts/Example concept.md";
    const { seen } = await ingestWith(vault, state, [concept("Examples explain things better. See [[Source note]].")], (plan) => plan.changes.map((c) => c.path));
    expect(await vault.read(path)).toBe(seen[0]?.changes[0]?.after);

    await ingestWith(vault, state, [concept("A third wording. See [[Source note]].")], async (plan) => {
      // The user types into the page while the review is open.
      await vault.process(path, (current) => `${current}\nMy note, typed during the review.\n`);
      return plan.changes.map((c) => c.path);
    });
    const after = await vault.read(path);
    expect(after).toContain("My note, typed during the review.");
    expect(after).toContain("A third wording.");
  });

  it("asks under 'always' for any change, under 'changes' only when an existing page changes, never under 'never'", () => {
    const change = (before: string | null) => ({ path: "p.md", type: "concept", title: "P", action: before === null ? ("created" as const) : ("updated" as const), before, after: "x", diff: "" });
    const creates: ReviewPlan = { notePath: "n.md", sourceTitle: "N", dryRun: false, changes: [change(null)] };
    const updates: ReviewPlan = { ...creates, changes: [change(null), change("old")] };
    expect([needsReview("always", creates), needsReview("changes", creates), needsReview("never", creates)]).toEqual([true, false, false]);
    expect([needsReview("always", updates), needsReview("changes", updates), needsReview("never", updates)]).toEqual([true, true, false]);
    expect(needsReview("always", { ...creates, changes: [] })).toBe(false);
  });
});
