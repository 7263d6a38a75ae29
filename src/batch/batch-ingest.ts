/**
 * The batch ingest's three moves, each a whole step on the record: `startBatch` (record the notes,
 * submit round 1), `collectBatch` (take in a finished round, apply the notes that are complete,
 * submit the next round), `cancelBatch`. Each reads the record from the state folder and saves it
 * back: nothing is carried in memory from one command to the next. Each holds the batch's lock
 * (batch-lock.ts) while it works, so a second process on the same batch stops at once instead.
 */
import { SynapseError } from "../core/errors";
import { noteFingerprint } from "../wiki/source-registry";
import type { RemoteStatus } from "./batch-api";
import { withBatchLock } from "./batch-lock";
import { newBatchId } from "./batch-store";
import { advance, forgetPending, takeResults, type AdvanceOptions, type BatchDeps } from "./rounds";
import { openRound, type BatchProvider, type BatchRecord } from "./record";

export interface StartRequest {
  readonly folder: string;
  readonly notePaths: readonly string[];
  readonly provider: BatchProvider;
  readonly model: string;
  readonly flags: BatchRecord["flags"];
}

export interface StepOutcome {
  readonly record: BatchRecord;
  /** Requests sent as a new round by this step (0: none). */
  readonly submitted: number;
  /** The open round's status when it is still at the provider (nothing else was done). */
  readonly waiting: RemoteStatus | null;
}

export async function startBatch(deps: BatchDeps, request: StartRequest): Promise<StepOutcome> {
  if (!request.model) {
    const section = request.provider === "anthropic" ? "API: Anthropic" : "API: OpenAI-compatible";
    throw new SynapseError("config", "A batch needs a model; set one in the settings (or pass --model).", { pluginMessage: `A batch needs a model; set "Model" under ${section}.` });
  }
  const notes: BatchRecord["notes"] = [];
  for (const path of request.notePaths) {
    const text = await deps.vault.read(path).catch(() => null);
    notes.push(
      text === null
        ? { path, hash: "unreadable", state: "failed" as const, message: "The note could not be read.", calls: [] }
        : { path, hash: await noteFingerprint(text), state: "running" as const, message: null, calls: [] },
    );
  }
  const id = newBatchId(deps.now());
  // Held from before the record exists: a collector that finds it mid-submission must not send its round again.
  return withBatchLock(deps.write, id, "submission", async () => {
    const record: BatchRecord = {
      version: 1,
      id,
      provider: request.provider,
      model: request.model,
      flags: request.flags,
      folder: request.folder,
      createdAt: new Date(deps.now()).toISOString(),
      rounds: [],
      notes,
    };
    await deps.store.save(record);
    const submitted = await advance(deps, record);
    return { record, submitted, waiting: null };
  });
}

export function collectBatch(deps: BatchDeps, id: string, options: AdvanceOptions = {}): Promise<StepOutcome> {
  return withBatchLock(deps.write, id, "collect", () => collectLocked(deps, id, options));
}

async function collectLocked(deps: BatchDeps, id: string, options: AdvanceOptions): Promise<StepOutcome> {
  // Read under the lock: what another collector did before us is in it.
  const record = await deps.store.get(id);
  const round = openRound(record);
  if (round?.remoteId === null) {
    // Recorded but never accepted by the provider (the process stopped in between): built and sent again.
    record.rounds.pop();
    forgetPending(record, round.round);
    await deps.store.save(record);
  } else if (round?.remoteId) {
    const status = await deps.api.status(round.remoteId);
    if (!status.ended) return { record, submitted: 0, waiting: status };
    takeResults(record, await deps.api.results(round.remoteId), deps.now());
    await deps.store.save(record);
  }
  const submitted = await advance(deps, record, options);
  return { record, submitted, waiting: null };
}

export function cancelBatch(deps: Pick<BatchDeps, "store" | "api" | "write">, id: string): Promise<BatchRecord> {
  return withBatchLock(deps.write, id, "cancel", async () => {
    const record = await deps.store.get(id);
    const round = openRound(record);
    if (!round?.remoteId) throw new SynapseError("input", `The batch ${id} has no round at the provider to cancel.`);
    await deps.api.cancel(round.remoteId);
    round.canceled = true;
    await deps.store.save(record);
    return record;
  });
}
