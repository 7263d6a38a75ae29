/**
 * The batch ingests of a vault, one record each under `batches/` in the state folder, where the
 * CLI and the plugin both find them. A record is rewritten whole after every step (a round
 * submitted, results taken in, a note applied), so a process stopped at any point leaves the last
 * step's record; nothing removes one but the user's own clean-up.
 */
import { SynapseError } from "../core/errors";
import type { StateStore } from "../vault/state-store";
import { BATCHES_PREFIX, BatchRecordSchema, type BatchRecord } from "./record";

function keyOf(id: string): string {
  if (!/^[a-z0-9-]{1,64}$/.test(id)) throw new SynapseError("input", `"${id}" is not a batch id (they look like 20261202-031500-1a2b3c4d).`);
  return `${BATCHES_PREFIX}/${id}.json`;
}

/** A new id that sorts by time, as proposals' do. */
export function newBatchId(now: number): string {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${stamp}-${crypto.randomUUID().slice(0, 8)}`;
}

export interface BatchListing {
  readonly records: readonly BatchRecord[];
  /** Files under batches/ this version cannot read (damaged, or from a newer Synapse): kept, named. */
  readonly unreadable: readonly string[];
}

export class BatchStore {
  constructor(private readonly store: StateStore) {}

  async list(): Promise<BatchListing> {
    const records: BatchRecord[] = [];
    const unreadable: string[] = [];
    for (const key of await this.store.list(BATCHES_PREFIX)) {
      if (!key.endsWith(".json")) continue;
      const parsed = parseRecord(await this.store.read(key));
      if (parsed) records.push(parsed);
      else unreadable.push(key);
    }
    return { records: records.sort((a, b) => a.id.localeCompare(b.id)), unreadable };
  }

  async get(id: string): Promise<BatchRecord> {
    const text = await this.store.read(keyOf(id));
    if (text === null) {
      throw new SynapseError("input", `No batch "${id}" is recorded in this vault (synapse batch status lists them).`, {
        pluginMessage: `No batch "${id}" is recorded in this vault any more ("Show batch ingest status" lists them).`,
      });
    }
    const parsed = parseRecord(text);
    if (!parsed) throw new SynapseError("vault", `The batch record "${id}" cannot be read (damaged, or written by a newer Synapse); it was left as it is.`);
    return parsed;
  }

  async save(record: BatchRecord): Promise<void> {
    // Checked on the way in too: a record this version could not read back is never written.
    await this.store.write(keyOf(record.id), `${JSON.stringify(BatchRecordSchema.parse(record))}\n`);
  }
}

function parseRecord(text: string | null): BatchRecord | null {
  if (text === null) return null;
  try {
    const result = BatchRecordSchema.safeParse(JSON.parse(text));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}
