/**
 * One process at a time on a batch. Starting, collecting and cancelling a batch each hold the
 * batch's own lock for the whole step — the write lock's mechanism (`write/write-lock.ts`) under a
 * key of the batch's — so two collectors on one device (two terminals, Obsidian and a terminal)
 * never take in the same results, submit the same round or apply a note's pages twice. The second
 * gives up at once and says who is busy: waiting would only make it find the work done.
 *
 * It is not the write lock: each note's ingest takes that one for its own run while the batch lock
 * is held, and an ingest of other notes goes on meanwhile.
 */
import type { StateStore } from "../vault/state-store";
import type { WriteContext } from "../write/write-context";
import { acquireWriteLock, type WriteLock } from "../write/write-lock";
import type { WriterIdentity } from "../write/write-records";
import { keyName } from "../write/writer-device";

export type BatchStep = "submission" | "collect" | "cancel";

/** What the lock needs of the root's write context: the state folder, who this is, the lock's tuning. */
export type BatchLockContext = Pick<WriteContext, "store" | "writer" | "lock">;

/** `locks/batch-<id>.<device>.json`: per device, as the write lock is (another device's copy is another vault). */
export function batchLockKey(id: string, writer: WriterIdentity): string {
  return `locks/batch-${keyName(id)}${writer.device ? `.${keyName(writer.device.id)}` : ""}.json`;
}

export function busyBatchText(id: string, holder: string): string {
  return `Another Synapse is collecting this batch (${id}) or cancelling it: ${holder}. Nothing was done here, so nothing is applied twice; try again when it has finished.`;
}

export function acquireBatchLock(context: BatchLockContext, id: string, step: BatchStep): Promise<WriteLock> {
  const store: StateStore = context.store;
  return acquireWriteLock(store, {
    ...context.lock,
    writer: context.writer,
    key: batchLockKey(id, context.writer),
    activity: `${step} of batch ${id}`,
    busy: (holder) => busyBatchText(id, holder),
    // The write lock's wait is for a writer that will soon be done; a collector is not.
    waitMs: 0,
  });
}

/** Runs one step under the batch's lock, giving it back whatever happens. */
export async function withBatchLock<T>(context: BatchLockContext, id: string, step: BatchStep, work: () => Promise<T>): Promise<T> {
  const lock = await acquireBatchLock(context, id, step);
  try {
    return await work();
  } finally {
    await lock.release();
  }
}
