/**
 * The sixth stage: what the review kept is written in one run (write/apply.ts: locked, journaled,
 * recorded for undo), with the note's registry entry, the contradictions found and the user's
 * refusals as records of the same run, so an undo takes them back together. A dry run writes nothing.
 */
import type { StateStore } from "../../vault/state-store";
import { applyPlan } from "../../write/apply";
import type { ChangeAction } from "../../write/planned-change";
import { contradictionsFoundChange, readContradictions, type Contradiction } from "../contradictions";
import { refusalsChange } from "./refusals";
import type { IngestRun } from "./run";
import type { PlannedIngest } from "./plan";
import type { ReviewedPlan } from "./review";
import { logDetails } from "./spending";

export interface AppliedIngest {
  /** What the run did to each page it planned (a dry run: the plan's own actions). */
  readonly actions: ReadonlyMap<string, ChangeAction>;
  /** The contradictions on the pages kept. */
  readonly contradictions: readonly Contradiction[];
}

/** Whether the contradictions record can be read (and so added to); a damaged one becomes a warning. */
async function readableRecord(store: StateStore, warnings: string[]): Promise<boolean> {
  try {
    await readContradictions(store);
    return true;
  } catch (cause) {
    warnings.push(cause instanceof Error ? cause.message : String(cause));
    return false;
  }
}

export async function applyIngest(ingest: IngestRun, plan: PlannedIngest, reviewed: ReviewedPlan): Promise<AppliedIngest> {
  const { deps, request, write, registry, wikiFolder, caps, now } = ingest;
  const { vault } = deps;
  const { notePath, fingerprint } = plan.note;
  const { sourceTitle, deleted, moved } = plan;
  const { catalog, pagePaths } = plan.context;
  const { chosen, declined } = reviewed;
  const refusals = request.dryRun ? [] : refusalsChange(write.writer, notePath, [...deleted.remember, ...reviewed.rejected], deleted.forget);
  // A review that kept no change writes nothing at all, not even a log entry.
  const writesSomething = declined.length === 0 || chosen.some((c) => c.action !== "unchanged");
  // The note's registry entry is written by the same run as its pages (undone with them).
  const yieldedPages = chosen.filter((p) => p.locked === undefined && p.action !== "removed").map((p) => p.path);
  // Sections still under a former path (on pages left out at review, or an agent did not return) keep it.
  const formerPaths = declined.length > 0 || caps.supportsAgenticLoop ? moved.formerPaths : [];
  const leftOut = declined.map((d) => d.path);
  const entry = { hash: fingerprint ?? "", ingestedAt: new Date(now()).toISOString(), wikiFolder, pages: yieldedPages, formerPaths, leftOut };
  const recorded = registry && fingerprint && !request.dryRun && writesSomething ? await registry.recordChange(notePath, entry, moved.movedFrom) : [];
  const contradictions = chosen.flatMap((p) => p.contradictions ?? []);
  // The contradictions go into the record in the same run as the pages that show them, so an undo
  // of the ingest takes them out again. The pages show them either way: a record lint cannot
  // read is reported and left as it is, never a failed ingest.
  const recordable = contradictions.length > 0 && deps.write && !request.dryRun && writesSomething ? await readableRecord(write.store, ingest.warnings) : false;
  const written =
    request.dryRun || !writesSomething
      ? null
      : await applyPlan(vault, chosen, {
          ...write,
          operation: "ingest",
          label: sourceTitle,
          wikiFolder,
          now,
          ...(catalog ? {} : { existingPages: pagePaths }),
          logDetails: logDetails(ingest, notePath, sourceTitle),
          state: [...recorded, ...(recordable ? [contradictionsFoundChange(contradictions, plan.date)] : []), ...refusals],
        });
  // Everything declined: the reasons are still remembered (records alone, no run of their own).
  if (!written && !writesSomething && refusals.length > 0) await applyPlan(vault, [], { ...write, operation: "ingest", label: sourceTitle, wikiFolder, now, state: refusals });
  const applied = written?.changes ?? chosen;
  if (catalog && !request.dryRun) {
    // The next ingest retrieves what this one wrote; a failure here only delays that to the next sync.
    await catalog.refresh(applied.filter((a) => a.action !== "unchanged").map((a) => a.path)).catch((cause: unknown) => {
      ingest.warnings.push(`The search index was not updated: ${cause instanceof Error ? cause.message : String(cause)}`);
    });
  }
  return { actions: new Map(applied.map((a) => [a.path, a.action])), contradictions };
}
