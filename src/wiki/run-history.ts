/**
 * The last runs that changed the vault, newest first, for `synapse history` and undo. One record per
 * run under `history/<id>.json` in the StateStore; ids sort by time, and only the newest
 * `HISTORY_LIMIT` are kept.
 */
import type { StateStore } from "../vault/state-store";
import { RunRecordSchema, parseRecord, type RunRecord } from "./write-records";

export const HISTORY_LIMIT = 20;
const FOLDER = "history";

/** A run id that sorts by time: `20261130T180211Z-k3f9q2`. */
export function newRunId(now: number): string {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  return `${stamp}-${Math.random().toString(36).slice(2, 8)}`;
}

export async function recordRun(store: StateStore, record: RunRecord): Promise<void> {
  await store.write(`${FOLDER}/${record.id}.json`, JSON.stringify(record));
  const keys = await store.list(FOLDER);
  for (const key of keys.slice(0, Math.max(0, keys.length - HISTORY_LIMIT))) await store.remove(key);
}

export async function hasRun(store: StateStore, id: string): Promise<boolean> {
  return (await store.read(`${FOLDER}/${id}.json`)) !== null;
}

export interface StoredHistory {
  /** Newest first. */
  readonly runs: readonly RunRecord[];
  /** Records that could not be read (a hand edit, a newer version): named, never guessed at. */
  readonly unreadable: readonly string[];
}

export async function readHistory(store: StateStore): Promise<StoredHistory> {
  const runs: RunRecord[] = [];
  const unreadable: string[] = [];
  for (const key of await store.list(FOLDER)) {
    const text = await store.read(key);
    const parsed = text === null ? null : parseRecord(RunRecordSchema, text);
    if (parsed?.ok) runs.push(parsed.value);
    else if (parsed) unreadable.push(`${key} (${parsed.reason})`);
  }
  runs.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  return { runs, unreadable };
}

/** Ids of the runs an undo has undone. */
export function undoneIds(runs: readonly RunRecord[]): Set<string> {
  return new Set(runs.flatMap((r) => (r.undoes ? [r.undoes] : [])));
}

/** The run the next undo reverts: the newest that is not itself an undo and was not undone. */
export function lastUndoableRun(runs: readonly RunRecord[]): RunRecord | null {
  const undone = undoneIds(runs);
  return runs.find((r) => r.operation !== "undo" && !undone.has(r.id)) ?? null;
}
