/**
 * The third stage: the model calls. Analyse once, then generate and validate until the pages pass
 * (core/orchestrator.ts), with what the user refused before said to the model and every source the
 * pages name checked against the perimeter.
 */
import { orchestrate, type RunResult } from "../../core/orchestrator";
import { sourceChecker } from "../../core/source-check";
import { withRejections } from "./refusals";
import type { AdmittedNote } from "./admit";
import type { NoteContext } from "./context";
import type { IngestRun } from "./run";

export async function orchestrateNote(ingest: IngestRun, note: AdmittedNote, context: NoteContext): Promise<RunResult> {
  const { settings, vault } = ingest.deps;
  return orchestrate(
    ingest.guarded,
    {
      maxIter: settings.maxIter,
      tokenBudget: settings.tokenBudget,
      retrievalContext: withRejections(context.retrievalContext, context.refused),
      vaultContext: context.vaultContext,
      linkExists: context.linkExists,
      checkSources: sourceChecker({
        excludedFolders: settings.excludedFolders,
        bookkeeping: context.special,
        admitted: [note.notePath],
        exists: async (path) => (await vault.stat(path)) !== null,
        ...(vault.realPath ? { realPath: (path: string) => vault.realPath?.(path) ?? Promise.resolve(path) } : {}),
      }),
    },
    { ...ingest.run, source: { path: note.notePath, text: note.text } },
  );
}
