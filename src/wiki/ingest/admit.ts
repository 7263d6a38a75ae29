/**
 * The first stage: may this note go to this provider, can it be read, and is it up to date? The
 * perimeter speaks before the note is even read; an unchanged note (same content hash, same wiki,
 * its pages there, its run not undone) stops the ingest before any provider is called.
 */
import { SynapseError, toSynapseError } from "../../core/errors";
import { readHistory, undoneIds } from "../../write/run-history";
import { recordMove } from "../moved-note";
import { markedSources } from "../provenance";
import { normaliseNotePath, readNote } from "../read-note";
import { noteFingerprint, type UpToDate } from "../source-registry";
import { existsApart } from "../spelling-twins";
import type { IngestRun } from "./run";

/** A note let in: its normalised path, its text, and its content hash (null without a registry). */
export interface AdmittedNote {
  readonly notePath: string;
  readonly text: string;
  readonly fingerprint: string | null;
}

export type Admission =
  | { readonly verdict: "up_to_date"; readonly upToDate: UpToDate }
  | { readonly verdict: "ingest"; readonly note: AdmittedNote };

/** Throws for a note or provider the perimeter refuses and for a note that cannot be read. */
export async function admitNote(ingest: IngestRun): Promise<Admission> {
  const { deps, request, perimeter } = ingest;
  const { vault, settings } = deps;
  const notePath = normaliseNotePath(request.notePath);
  perimeter.admitNote(notePath);
  perimeter.admitProvider(deps.provider);
  // A link into an excluded folder is still that folder.
  const realPath = vault.realPath
    ? await vault.realPath(notePath).catch((cause: unknown) => {
        throw new SynapseError("input", toSynapseError(cause).message, { cause });
      })
    : notePath;
  if (realPath !== notePath) perimeter.admitNote(realPath);
  request.progress?.({ type: "phase", phase: "reading" });
  const text = await readNote(vault, notePath, settings.maxNoteBytes, ingest.wikiFolder);
  const fingerprint = ingest.registry ? await noteFingerprint(text) : null;
  const upToDate = fingerprint && !request.force ? await upToDateEntry(ingest, notePath, fingerprint) : null;
  return upToDate ? { verdict: "up_to_date", upToDate } : { verdict: "ingest", note: { notePath, text, fingerprint } };
}

/** The note's registry entry when it is up to date; a moved note's record follows it either way. */
async function upToDateEntry(ingest: IngestRun, notePath: string, fingerprint: string): Promise<UpToDate | null> {
  const { registry, write, request, now } = ingest;
  const { vault } = ingest.deps;
  if (!registry) return null;
  const markedIn = async (page: string) => ((await vault.stat(page)) ? markedSources(await vault.read(page)) : []);
  const found = await registry.match(notePath, fingerprint, ingest.wikiFolder, (p) => existsApart(vault, p, notePath), markedIn);
  // A moved note keeps its record under its new path (under the write lock, journaled, no run
  // of its own), also when it is not up to date (its ingest left changes out, or lost pages):
  // that ingest then revises its sections as the same source. In a dry run nothing is
  // recorded. Failing to only costs finding the move again.
  if (found?.movedFrom && !request.dryRun) {
    await recordMove(vault, write, { from: found.movedFrom, to: notePath, proven: true, now }).catch((cause: unknown) => {
      ingest.warnings.push(`The note's new path was not recorded: ${toSynapseError(cause).message}`);
    });
  }
  if (!found?.complete) return null;
  // An undo of the run that recorded it took its pages back: the note must be ingested again.
  if (found.entry.runId && undoneIds((await readHistory(write.store)).runs).has(found.entry.runId)) return null;
  return { entry: found.entry, movedFrom: found.movedFrom };
}
