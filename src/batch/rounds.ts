/**
 * The batch ingest's rounds. `advance` runs a pass (note-pass.ts) for every note still running:
 * a note whose next call has no result gets it kept for the next round, a note that needs nothing
 * new is applied, one run per note. The kept requests then go to the provider as the next round's
 * batch. `takeResults` puts a finished round's results into the record. The record is saved after
 * every step, so a process stopped anywhere carries on from the last one.
 */
import { SynapseError, toSynapseError } from "../core/errors";
import type { InferenceProvider } from "../core/provider";
import type { FetchLike } from "../providers/environment";
import type { VaultPort } from "../vault/vault-port";
import type { IngestReport } from "../wiki/ingest-types";
import { noteFingerprint } from "../wiki/source-registry";
import type { BatchApi, ItemResult } from "./batch-api";
import type { BatchLockContext } from "./batch-lock";
import type { BatchStore } from "./batch-store";
import { NotePass, type HeldRequest } from "./note-pass";
import { openRound, type BatchCall, type BatchNote, type BatchRecord } from "./record";

export interface BatchDeps {
  readonly vault: VaultPort;
  readonly store: BatchStore;
  /** The root's write context: the batch's lock (batch-lock.ts) is taken through it. */
  readonly write: BatchLockContext;
  readonly api: BatchApi;
  /**
   * The configured provider, built over this transport (the factory, with the profile's settings).
   * `live` is false for a pass answered from the batch: a retry there is answered at once (or kept
   * for the next round), so the provider must not sleep its backoff before it.
   */
  readonly providerOver: (transport: FetchLike, live: boolean) => InferenceProvider;
  /** The transport requests go out on when a retry sends them interactively. */
  readonly fetch: FetchLike;
  /**
   * One note's ingest as the root runs it (its review rule, its journal), with this provider,
   * stopped by this signal. Its review asks `beforeWrite` first and keeps no change when it says false.
   */
  readonly ingest: (notePath: string, provider: InferenceProvider, signal: AbortSignal, beforeWrite: () => boolean) => Promise<IngestReport>;
  readonly now: () => number;
  /** Ctrl-C: the running note stops (writing nothing) and no other starts. */
  readonly signal?: AbortSignal;
  /** Told of each note whose pass settled it (applied, failed, changed), once the record holds it. */
  readonly onNote?: (note: BatchNote) => void;
}

export interface AdvanceOptions {
  /** Failed notes too, sending what the batch did not answer interactively. */
  readonly retryFailed?: boolean;
}

const FAILED_CALL = new Set<BatchCall["status"]>(["errored", "expired", "canceled"]);

function failureText(report: IngestReport): string {
  if (report.error) return report.error.message;
  const issues = report.issues.slice(0, 3).join(" ");
  return `The pages did not validate (${report.stopReason.replace(/_/g, " ")})${issues ? `: ${issues}` : "."}`;
}

function appliedText(report: IngestReport): string {
  const written = report.pages.filter((p) => p.action !== "unchanged").length;
  return `${written} page${written === 1 ? "" : "s"} written`;
}

/** In a retry, which results are reused: all of them after failed requests, only the analysis after a run that did not converge (the same results would fail the same way). */
function replayRule(note: BatchNote): (call: BatchCall) => boolean {
  const requestFailed = note.calls.some((c) => FAILED_CALL.has(c.status));
  return requestFailed ? () => true : (call) => call.key.startsWith("analyze:");
}

async function passNote(deps: BatchDeps, record: BatchRecord, index: number, round: number, live: boolean): Promise<HeldRequest[]> {
  const note = record.notes[index];
  if (!note) return [];
  const text = await deps.vault.read(note.path).catch(() => null);
  if (text === null || (await noteFingerprint(text)) !== note.hash) {
    note.state = "changed";
    note.message = text === null ? "The note is gone since it was submitted; nothing was written." : "The note was edited since it was submitted; it was skipped and nothing was overwritten. Ingest it again to take the edit in.";
    return [];
  }
  const pass = new NotePass(note, { provider: record.provider, round, noteIndex: index, ...(live ? { live: { replay: replayRule(note) } } : {}) });
  const signal = deps.signal ? AbortSignal.any([pass.signal, deps.signal]) : pass.signal;
  const report = await deps.ingest(note.path, pass.provider(deps.providerOver(pass.transport(deps.fetch), live)), signal, () => pass.beforeWrite());
  if (pass.deferred) {
    note.state = "running";
    note.message = null;
    return pass.held;
  }
  // Ctrl-C, not the batch: the note stays as it was, for the next collect.
  if (deps.signal?.aborted) return [];
  if (report.upToDate && note.calls.length > 0) {
    // Its pages went in after the batch answered (a collect stopped before it recorded so, or an ingest of the note).
    note.state = "applied";
    note.message = "Its pages were written already.";
  } else if (report.upToDate) {
    note.state = "up_to_date";
    note.message = "Already ingested, unchanged since.";
  } else if (report.converged) {
    note.state = "applied";
    note.message = appliedText(report);
  } else {
    note.state = "failed";
    note.message = failureText(report);
  }
  return [];
}

/**
 * Passes every running note (and with `retryFailed` every failed one) and submits what they kept
 * as the next round. Resolves with the number of requests submitted.
 */
export async function advance(deps: BatchDeps, record: BatchRecord, options: AdvanceOptions = {}): Promise<number> {
  if (openRound(record)) throw new SynapseError("input", `The batch ${record.id} still has round ${record.rounds.length} at the provider; collect its results first.`);
  const round = record.rounds.length + 1;
  const held: HeldRequest[] = [];
  for (const [index, note] of record.notes.entries()) {
    if (deps.signal?.aborted) break;
    const live = options.retryFailed === true && note.state === "failed";
    if (note.state !== "running" && !live) continue;
    const kept = await passNote(deps, record, index, round, live);
    held.push(...kept);
    await deps.store.save(record);
    // Told once the record says so: a process stopped after this line has lost nothing.
    if (kept.length === 0 && note.state !== "running") deps.onNote?.(note);
  }
  if (held.length === 0 || deps.signal?.aborted) {
    // Calls kept by a pass Ctrl-C cut short are forgotten; the next collect builds them again.
    if (held.length > 0) forgetPending(record, round);
    await deps.store.save(record);
    return 0;
  }
  // Recorded before it is sent: a crash in between leaves a round without a remote id, which collect sends again.
  record.rounds.push({ round, remoteId: null, requests: held.length, submittedAt: new Date(deps.now()).toISOString(), collectedAt: null, canceled: false });
  await deps.store.save(record);
  const remoteId = await deps.api.submit(held).catch(async (error: unknown) => {
    record.rounds.pop();
    forgetPending(record, round);
    await deps.store.save(record);
    throw toSynapseError(error);
  });
  const last = record.rounds[record.rounds.length - 1];
  if (last) last.remoteId = remoteId;
  await deps.store.save(record);
  return held.length;
}

/** Drops the calls of a round that never reached the provider; the notes' next pass keeps them again. */
export function forgetPending(record: BatchRecord, round: number): void {
  for (const note of record.notes) note.calls = note.calls.filter((c) => !(c.round === round && c.status === "pending"));
}

function failedText(result: Exclude<ItemResult, { type: "succeeded" }>): string {
  switch (result.type) {
    case "expired":
      return "The batch expired before this request was answered.";
    case "canceled":
      return "The batch was cancelled before this request was answered.";
    case "errored":
      return result.message;
  }
}

/** Puts a finished round's results into its calls; a note with a request that did not succeed fails (retry with --retry-failed). */
export function takeResults(record: BatchRecord, results: ReadonlyMap<string, ItemResult>, now: number): void {
  const round = openRound(record);
  if (!round) return;
  for (const note of record.notes) {
    for (const call of note.calls) {
      if (call.round !== round.round || call.status !== "pending") continue;
      const result: ItemResult = results.get(call.customId) ?? results.get("*") ?? { type: "errored", message: "The batch returned no result for this request." };
      if (result.type === "succeeded") {
        call.status = "succeeded";
        call.reply = result.reply;
      } else {
        call.status = result.type;
        call.error = failedText(result);
      }
    }
    const failed = note.calls.find((c) => c.round === round.round && FAILED_CALL.has(c.status));
    if (failed && note.state === "running") {
      note.state = "failed";
      note.message = `${failed.error ?? "A request failed."} Run synapse batch collect --retry-failed to ingest it interactively.`;
    }
  }
  round.collectedAt = new Date(now).toISOString();
}
