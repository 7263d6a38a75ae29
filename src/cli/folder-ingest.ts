/**
 * `synapse ingest <folder>`: every note below the folder (not the wiki, not excluded folders), one
 * at a time, unchanged notes skipped without a provider call. Progress goes to stderr, one line per
 * note; Ctrl-C stops the running note (which writes nothing) and starts no other, so the vault
 * holds each note's ingest whole or not at all.
 */
import { selectIngestible } from "../wiki/folder-notes";
import {
  countOutcomes,
  folderExitCode,
  jsonFolderReport,
  outcomeOf,
  outcomeText,
  stopsTheFolder,
  type FolderNote,
} from "./folder-report";
import { runCliIngest, type CliIngestContext } from "./ingest-run";
import { EXIT } from "./io";
import { humanReport } from "./report";

export async function runFolderIngest(folder: string, ctx: CliIngestContext, using: string): Promise<number> {
  const { io } = ctx;
  const { notes, skipped } = selectIngestible(await ctx.vault.list(folder), ctx.settings.wikiFolder, ctx.settings.excludedFolders);
  const where = folder === "" ? "the vault" : folder;
  const skippedText = skipped > 0 ? ` (${skipped} skipped: in the wiki folder or an excluded folder)` : "";
  io.stderr(`Ingesting ${notes.length} note${notes.length === 1 ? "" : "s"} from ${where} with ${using}${skippedText}…\n`);

  const results: FolderNote[] = [];
  let stopped: string | null = null;
  for (const [i, path] of notes.entries()) {
    if (ctx.signal?.aborted || stopped !== null) {
      results.push({ path, outcome: "not_started", report: null });
      continue;
    }
    const { report, diffs } = await runCliIngest(path, ctx);
    const note: FolderNote = { path, outcome: outcomeOf(report), report, ...(diffs ? { diffs } : {}) };
    results.push(note);
    io.stderr(`[${i + 1}/${notes.length}] ${path} … ${outcomeText(note)}\n`);
    if (!ctx.json && (ctx.dryRun || note.outcome === "failed" || note.outcome === "not_converged")) io.stdout(humanReport(report, path));
    if (stopsTheFolder(report)) stopped = report.error?.message ?? "the provider failed";
  }

  if (ctx.json) io.stdout(`${jsonFolderReport(folder, results, skipped)}\n`);
  else {
    const counts = countOutcomes(results);
    const parts = Object.entries(counts)
      .filter(([, n]) => n > 0)
      .map(([outcome, n]) => `${n} ${outcome.replace(/_/g, " ")}`);
    io.stdout(`Folder ${where}: ${parts.join(", ") || "no notes to ingest"}.\n`);
  }
  if (stopped !== null) io.stderr(`Stopped: the provider failed (${stopped}); the remaining notes were not started.\n`);
  if (ctx.signal?.aborted) {
    io.stderr("Interrupted: no further note was started; every note is either wholly ingested or not at all.\n");
    return EXIT.cancelled;
  }
  return folderExitCode(results);
}
