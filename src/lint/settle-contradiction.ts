/**
 * Settling a recorded contradiction, one at a time, by the user's choice: resolve it (keep one
 * side; the pages are edited through review and the write path) or dismiss it (a status change
 * alone). Either is a run of the write path: a resolution's status change is written with its page
 * edits (a failed write leaves it open), a dismissal's alone; each is journaled, logged, listed in
 * the history, and undone like any run (the contradiction is open again).
 */
import { SynapseError } from "../core/errors";
import { isExcluded } from "../core/perimeter";
import { effectiveWikiFolder } from "../wiki/page-paths";
import { applyPlan } from "../write/apply";
import { contradictionStatusChange, readContradictions, type ContradictionRecord } from "../wiki/contradictions";
import type { PlannedChange } from "../write/planned-change";
import { keptSide, planResolution } from "./contradictions";
import type { LintDeps } from "./run-lint";
import { sliceCheckpoint } from "./slices";
import { loadSnapshot } from "./snapshot";

export interface SettleReport {
  readonly contradiction: ContradictionRecord;
  /** The pages the resolution changed (empty for a dismissal). */
  readonly changed: readonly string[];
}

async function openRecord(deps: Pick<LintDeps, "store">, id: string): Promise<ContradictionRecord> {
  const record = (await readContradictions(deps.store)).find((r) => r.id === id.trim());
  if (!record) {
    throw new SynapseError("input", `No recorded contradiction has the id "${id}"; \`synapse lint\` lists the open ones.`, {
      pluginMessage: `No recorded contradiction has the id "${id}"; run "Check wiki health" again to see the open ones.`,
    });
  }
  if (record.status !== "open") throw new SynapseError("input", `The contradiction ${record.id} is already ${record.status}.`);
  return record;
}

export async function dismissContradiction(deps: Pick<LintDeps, "vault" | "settings" | "store" | "write" | "now">, id: string): Promise<SettleReport> {
  const record = await openRecord(deps, id);
  if (!deps.write) throw new SynapseError("config", "Dismissing a contradiction needs the write path; none was given.");
  await applyPlan(deps.vault, [], {
    ...deps.write,
    operation: "lint",
    label: `dismiss contradiction ${record.id}`,
    wikiFolder: effectiveWikiFolder(deps.settings.wikiFolder),
    maintainIndex: false,
    state: [contradictionStatusChange(record.id, "dismissed", "dismissed by the user")],
    ...(deps.now ? { now: deps.now } : {}),
  });
  const contradiction = (await readContradictions(deps.store)).find((r) => r.id === record.id) ?? record;
  return { contradiction, changed: [] };
}

export async function resolveContradiction(
  deps: LintDeps,
  id: string,
  keep: string,
  review?: (changes: readonly PlannedChange[]) => Promise<readonly PlannedChange[]>,
): Promise<SettleReport> {
  const record = await openRecord(deps, id);
  const side = keptSide(record, keep);
  if (!deps.write) throw new SynapseError("config", "Resolving a contradiction needs the write path; none was given.");
  const pass = { ...(deps.yieldNow ? { yieldNow: deps.yieldNow } : {}), ...(deps.now ? { now: deps.now } : {}) };
  const snapshot = await loadSnapshot(deps.vault, deps.settings.wikiFolder, (path) => isExcluded(path, deps.settings.excludedFolders), sliceCheckpoint(pass));
  const planned = planResolution(record, side, snapshot);
  const selected = review ? await review(planned) : planned;
  // The user declined every edit: nothing is resolved, the contradiction stays open.
  if (planned.length > 0 && selected.length === 0) return { contradiction: record, changed: [] };
  const kept = record.sources[side] || `side ${side + 1}`;
  const result = await applyPlan(deps.vault, selected, {
    ...deps.write,
    operation: "lint",
    label: `resolve contradiction ${record.id}`,
    wikiFolder: effectiveWikiFolder(deps.settings.wikiFolder),
    maintainIndex: false,
    state: [contradictionStatusChange(record.id, "resolved", `kept ${kept}`)],
    ...(deps.now ? { now: deps.now } : {}),
  });
  const contradiction = (await readContradictions(deps.store)).find((r) => r.id === record.id) ?? record;
  return { contradiction, changed: result.changes.filter((c) => c.action !== "unchanged").map((c) => c.path) };
}
