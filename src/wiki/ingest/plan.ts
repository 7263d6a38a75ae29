/**
 * The fourth stage: the converged pages become planned changes (plan-pages.ts: page identity, paths,
 * links, update or merge), without the pages the user deleted before. Nothing is written but the
 * title-pair verdicts the model gave while planning.
 */
import { toSynapseError } from "../../core/errors";
import type { RunResult } from "../../core/orchestrator";
import { throwIfStopped } from "../../core/run-context";
import { userNotes, type LinkedNote } from "./canon-notes";
import { leaveOutDeleted, type DeletedPages } from "./refusals";
import { MatchVerdicts } from "./match-verdicts";
import { modelConfirm } from "./model-confirm";
import { planInputs, type MovedNote } from "../moved-note";
import { basenameOf } from "../page-paths";
import { planPages, type PlannedPage } from "./plan-pages";
import type { AdmittedNote } from "./admit";
import type { NoteContext } from "./context";
import type { IngestRun } from "./run";

export interface PlannedIngest {
  readonly note: AdmittedNote;
  readonly context: NoteContext;
  /** The title the analysis gave the note (its file name without one). */
  readonly sourceTitle: string;
  /** The day the pages are dated (YYYY-MM-DD). */
  readonly date: string;
  /** The changes to make: `deleted.planned`. */
  readonly planned: PlannedPage[];
  readonly deleted: DeletedPages;
  readonly moved: MovedNote;
  readonly verdicts: MatchVerdicts;
  /** New pages not planned because a note of the user's covers their subject. */
  readonly linkedNotes: readonly LinkedNote[];
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Keeps what the model said about similar titles (not in a dry run); failing to is a warning. */
export async function saveVerdicts(ingest: IngestRun, verdicts: MatchVerdicts): Promise<void> {
  if (ingest.request.dryRun) return;
  await verdicts.save().catch((cause: unknown) => ingest.warnings.push(`What the model said about similar titles was not kept: ${toSynapseError(cause).message}`));
}

/** `result` is a converged run's. */
export async function planNotePages(ingest: IngestRun, note: AdmittedNote, context: NoteContext, result: RunResult): Promise<PlannedIngest> {
  const { deps, request, registry, wikiFolder, caps, now } = ingest;
  const { vault, settings } = deps;
  const { notePath } = note;
  const { catalog, pagePaths, wikiNamed } = context;
  request.progress?.({ type: "phase", phase: "writing" });
  const sourceTitle = result.analysis?.title || basenameOf(notePath);
  const date = isoDay(now());
  // With the catalogue, the duplicate check looks at retrieval's shortlist and at the pages named
  // like the new ones, not at every page of the wiki. A moved note's pages are found under its former path.
  const inputs = await planInputs({ vault, registry, notePath, wikiFolder, yielded: result.pages, pagePaths, ...(catalog ? { index: { shortlist: context.shortlist, wikiNamed } } : {}) });
  const { moved } = inputs;
  // Pairs of titles already judged (by the model, or kept apart by the user) are not asked again.
  const verdicts = await MatchVerdicts.load(ingest.write.store).catch(() => MatchVerdicts.inMemory());
  const linkedNotes: LinkedNote[] = [];
  const plannedAll = await planPages(result.pages, {
    vault,
    wikiFolder,
    existingPaths: pagePaths,
    ...(catalog ? { existingNamed: wikiNamed } : {}),
    registry: inputs.pages,
    formerSources: moved.formerPaths,
    sourceTitle,
    sourcePath: notePath,
    date,
    noteExists: context.noteExists,
    verdicts,
    // With a model, a similar page is its page only if the model says so; without one, the threshold.
    ...(caps.model !== null ? { confirm: modelConfirm({ provider: ingest.guarded, run: ingest.run, verdicts }) } : {}),
    // An agent returns only the pages it wrote; any other backend returns all the note yields.
    retractUnyielded: !caps.supportsAgenticLoop,
    canon: { mode: settings.userNoteCanon, notes: userNotes(vault, { wikiFolder, excludedFolders: settings.excludedFolders, notePath, ...(catalog ? { named: (name: string) => catalog.pathsNamed(name) } : {}) }) },
    onLinkedNote: (link) => linkedNotes.push(link),
  });
  const previous = registry ? ((await registry.entry(notePath))?.pages ?? []) : [];
  const deleted = leaveOutDeleted(plannedAll, previous, context.refused, request.force === true, new Date(now()).toISOString());
  // Last chance to cancel before the review: from here on the plan is applied whole or not at all.
  throwIfStopped(ingest.run);
  await saveVerdicts(ingest, verdicts);
  return { note, context, sourceTitle, date, planned: deleted.planned, deleted, moved, verdicts, linkedNotes };
}
