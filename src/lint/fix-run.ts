/**
 * A lint run's fixes written as ONE run of the write path: the planned edits, and each stale note's
 * re-ingest planned in full (`planIngest`) but not written on its own — its pages, its index lines
 * and its records (the note's registry entry, contradictions found) join the fixes' changes. So the
 * review shows them together, they are applied all-or-nothing, log.md gets one
 * `## [date] lint | N fixes` entry, and one undo takes the whole run back.
 */
import { sourceKey } from "../core/sources";
import { SynapseError } from "../core/errors";
import { addUsage, NO_USAGE, type UsageSummary } from "../core/usage";
import { applyPlan } from "../write/apply";
import { editIndex, indexPath, type IndexEdit } from "../write/index-log";
import type { DeferredIngest } from "../wiki/ingest-note";
import { effectiveWikiFolder } from "../wiki/page-paths";
import type { PlannedChange, PlannedStateChange } from "../write/planned-change";
import { planFixes, type ChosenFix, type SkippedFix } from "./fixes";
import type { LintDeps } from "./run-lint";
import type { WikiSnapshot } from "./snapshot";

export interface FixRunRequest {
  /** Chooses which planned changes are written (the review step); all of them without it. */
  readonly review?: (changes: readonly PlannedChange[]) => Promise<readonly PlannedChange[]>;
  /** Plan (re-ingests included) and report, write nothing. */
  readonly dryRun?: boolean;
  readonly signal?: AbortSignal;
}

export interface FixRunResult {
  /** The fixes the run carries out (or, with dryRun, would). */
  readonly planned: readonly ChosenFix[];
  /** Every planned file change, re-ingests' pages included, before review. */
  readonly changes: readonly PlannedChange[];
  /** Fixes left out, with why. */
  readonly skipped: readonly SkippedFix[];
  /** Files the run changed (0 when nothing was written). */
  readonly written: number;
  /** What planning the re-ingests spent, whether or not the review kept their pages. */
  readonly usage: UsageSummary;
  readonly runId: string | null;
}

/**
 * Several changes to one file become one when each recomputes from the file as it is (the fixes'
 * index edits and a re-ingest's index lines; two fixes and a re-ingest of one page). Otherwise the
 * first stays and the later ones are dropped, named in `dropped`.
 */
export function combineChanges(changes: readonly PlannedChange[]): { changes: PlannedChange[]; dropped: string[] } {
  const byPath = new Map<string, PlannedChange[]>();
  for (const change of changes) byPath.set(change.path, [...(byPath.get(change.path) ?? []), change]);
  const out: PlannedChange[] = [];
  const dropped: string[] = [];
  for (const group of byPath.values()) {
    const [first, ...rest] = group;
    if (!first) continue;
    if (rest.length === 0 || first.remove) {
      out.push(first);
      if (rest.length > 0) dropped.push(first.path);
      continue;
    }
    const composable = rest.filter((c) => c.update && !c.remove);
    if (composable.length < rest.length) dropped.push(first.path);
    const updates = [...(first.update ? [first.update] : []), ...composable.map((c) => c.update).filter((u): u is NonNullable<typeof u> => u !== undefined)];
    const fold = (text: string) => composable.reduce((current, c) => (c.update ? c.update(current).content : current), text);
    out.push({
      ...first,
      ...(first.create !== undefined ? { create: fold(first.create) } : {}),
      ...(first.update
        ? {
            update: (current: string) => {
              const next = updates.reduce((text, update) => update(text).content, current);
              return { content: next, action: next === current ? "unchanged" : "updated" };
            },
          }
        : {}),
    });
  }
  return { changes: out, dropped };
}

/** index.md lines for the pages the re-ingests write, as an ingest's own run would add them. */
function indexLines(wikiFolder: string, pages: readonly PlannedChange[]): PlannedChange | null {
  const listed = pages.filter((c) => c.path !== indexPath(wikiFolder));
  if (listed.length === 0) return null;
  const edit: IndexEdit = {
    upsert: listed.filter((c) => !c.remove).map((c) => ({ path: c.path, type: c.type, title: c.title })),
    remove: listed.filter((c) => c.remove).map((c) => c.path),
  };
  return {
    path: indexPath(wikiFolder),
    type: "index",
    title: "Wiki index",
    action: "updated",
    create: editIndex("", edit),
    update: (current) => {
      const next = editIndex(current, edit);
      return { content: next, action: next === current ? "unchanged" : "updated" };
    },
  };
}

export async function runFixes(deps: LintDeps, snapshot: WikiSnapshot, chosen: readonly ChosenFix[], request: FixRunRequest = {}): Promise<FixRunResult> {
  const now = deps.now ?? (() => Date.now());
  const wikiFolder = effectiveWikiFolder(deps.settings.wikiFolder);
  const plan = planFixes(snapshot, chosen, new Date(now()).toISOString().slice(0, 10));
  const skipped = [...plan.skipped];
  let planned = [...plan.planned];
  const ingests: DeferredIngest[] = [];
  for (const note of plan.reingest) {
    if (!deps.reingest) throw new SynapseError("config", "The re-ingest fix needs the ingest backend; none was given.");
    if (request.signal?.aborted) throw new SynapseError("cancelled", "The lint run was cancelled.");
    const deferred = await deps.reingest(note, request.signal);
    if (deferred) ingests.push(deferred);
  }
  const reingested = ingests.flatMap((i) => i.changes);
  const combined = combineChanges([...plan.changes, ...reingested]);
  for (const path of combined.dropped) {
    for (const fix of planned.filter((c) => c.finding.page === path && c.fix.kind !== "reingest")) skipped.push({ fix, reason: `${path} is also changed by another fix of this run.` });
  }
  planned = planned.filter((c) => !skipped.some((s) => s.fix === c));
  const usage = ingests.reduce((sum, i) => addUsage(sum, i.usage), NO_USAGE);
  const result = (written: number, runId: string | null): FixRunResult => ({ planned, changes: combined.changes, skipped, written, runId, usage });
  if (request.dryRun || combined.changes.length === 0 && ingests.every((i) => i.state.length === 0)) return result(0, null);

  const selected = request.review ? await request.review(combined.changes) : combined.changes;
  if (request.signal?.aborted) throw new SynapseError("cancelled", "The lint run was cancelled.");
  // Declined in review: nothing is written and no fix counts as made.
  if (selected.length === 0 && combined.changes.length > 0) return { ...result(0, null), planned: [] };
  const kept = new Set(selected.map((c) => c.path));
  // A re-ingest whose pages were all declined records nothing: its note stays stale.
  const keptIngests = ingests.filter((i) => i.changes.length === 0 || i.changes.some((c) => kept.has(c.path)));
  const keptNotes = new Set(keptIngests.map((i) => sourceKey(i.notePath)));
  // A fix counts as made only when the review kept every file it writes (a re-ingest: any of its pages).
  planned = planned.filter((c) => (c.fix.kind === "reingest" ? keptNotes.has(sourceKey(c.fix.params.note)) : c.paths.every((p) => kept.has(p))));
  const index = indexLines(wikiFolder, reingested.filter((c) => kept.has(c.path)));
  const changes = index ? combineChanges([...selected, index]).changes : [...selected];
  // A re-ingest the review kept only part of records its note as partly applied: a later ingest offers the rest.
  const state: PlannedStateChange[] = [];
  for (const i of keptIngests) {
    const leftOut = i.changes.filter((c) => c.action !== "unchanged" && !kept.has(c.path)).map((c) => c.path);
    state.push(...(leftOut.length > 0 ? await i.stateLeavingOut(leftOut) : i.state));
  }
  if (!deps.write) throw new SynapseError("config", "Fixes need the write path; none was given.");
  const applied = await applyPlan(deps.vault, changes, {
    ...deps.write,
    operation: "lint",
    label: `${planned.length} fixes`,
    wikiFolder,
    maintainIndex: false,
    state,
    logDetails: keptIngests.flatMap((i) => [`re-ingested ${i.sourceTitle}`, ...i.logDetails]),
    now,
  });
  return result(applied.changes.filter((c) => c.action !== "unchanged").length, applied.runId);
}
