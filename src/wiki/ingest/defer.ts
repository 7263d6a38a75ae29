/**
 * `planIngest`'s last step: the plan handed to a caller that writes it in its own run (lint's
 * "re-ingest" fix, so that the whole lint run is one run, undone in one step).
 */
import type { UsageSummary } from "../../core/usage";
import type { PlannedChange, PlannedStateChange } from "../../write/planned-change";
import { contradictionsFoundChange } from "../contradictions";
import type { IngestRun } from "./run";
import type { PlannedIngest } from "./plan";
import { ingestCost, logDetails } from "./spending";

/** An ingest planned in full but not written: its file changes and the records that go with them. */
export interface DeferredIngest {
  readonly notePath: string;
  readonly sourceTitle: string;
  /** The pages as planned (review them with the caller's own changes). */
  readonly changes: readonly PlannedChange[];
  /** The note's registry entry and the contradictions found, as part of the caller's run. */
  readonly state: readonly PlannedStateChange[];
  /** The same, for a run whose review left out the changes of these pages (the note is then partly applied). */
  readonly stateLeavingOut: (leftOut: readonly string[]) => Promise<readonly PlannedStateChange[]>;
  /** Lines for the caller's log.md entry: the source, provider, tokens, cost. */
  readonly logDetails: readonly string[];
  /** What planning it spent (the model calls are made by then), for the caller's report. */
  readonly usage: UsageSummary;
}

export async function deferIngest(ingest: IngestRun, plan: PlannedIngest): Promise<DeferredIngest> {
  const { registry, now, wikiFolder } = ingest;
  const { notePath, fingerprint } = plan.note;
  const yielded = plan.planned.filter((p) => p.locked === undefined && p.action !== "removed").map((p) => p.path);
  const found = plan.planned.flatMap((p) => p.contradictions ?? []);
  const stateLeavingOut = async (leftOut: readonly string[]) => [
    ...(registry && fingerprint
      ? await registry.recordChange(notePath, { hash: fingerprint, ingestedAt: new Date(now()).toISOString(), wikiFolder, pages: yielded.filter((p) => !leftOut.includes(p)), leftOut }, plan.moved.movedFrom)
      : []),
    ...(found.length > 0 ? [contradictionsFoundChange(found, plan.date)] : []),
  ];
  const state = await stateLeavingOut([]);
  const cost = ingestCost(ingest);
  const spent = ingest.run.usage.totals();
  return {
    notePath,
    sourceTitle: plan.sourceTitle,
    changes: plan.planned,
    state,
    stateLeavingOut,
    logDetails: logDetails(ingest, notePath, plan.sourceTitle),
    usage: { inputTokens: spent.inputTokens, outputTokens: spent.outputTokens, costUsd: cost, ...(ingest.caps.isLocal ? { local: true } : {}) },
  };
}
