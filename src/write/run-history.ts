/**
 * The last runs that changed the vault, newest first, for `synapse history` and undo. One record per
 * run under `history/<id>.json` in the StateStore; ids sort by time and end with the writing
 * device's tag, so two devices' runs never share a file however sync merges the folder, and each
 * device keeps only its own newest `HISTORY_LIMIT` (never pruning another device's records).
 */
import type { StateStore } from "../vault/state-store";
import { RunRecordSchema, parseRecord, type RunRecord, type WriterIdentity } from "./write-records";
import { deviceTag, sameDevice } from "./writer-device";

export const HISTORY_LIMIT = 20;
const FOLDER = "history";

const ID_TIME = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z-/;

function idTime(id: string): number {
  const m = ID_TIME.exec(id);
  return m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]), Number(m[7])) : 0;
}

/** The device tag a run id ends with (`…-k3f9q2-1a2b3c4d`); "" for ids of earlier versions and device-less writers. */
function idDevice(id: string): string {
  return id.split("-")[2] ?? "";
}

/**
 * A run id that sorts by time, `20261130T180211042Z-k3f9q2-1a2b3c4d`, and always after every
 * recorded run (runs a millisecond apart, or a clock set back, still sort in the order they
 * happened); the device's tag makes it unique across devices.
 */
export async function newRunId(store: StateStore, now: number, writer?: WriterIdentity): Promise<string> {
  const keys = await store.list(FOLDER);
  const last = keys.length > 0 ? idTime((keys[keys.length - 1] ?? "").slice(FOLDER.length + 1)) : 0;
  const stamp = new Date(Math.max(now, last + 1)).toISOString().replace(/[-:.]/g, "");
  const tag = writer ? deviceTag(writer) : "";
  return `${stamp}-${Math.random().toString(36).slice(2, 8).padEnd(6, "0")}${tag ? `-${tag}` : ""}`;
}

export async function recordRun(store: StateStore, record: RunRecord): Promise<void> {
  await store.write(`${FOLDER}/${record.id}.json`, JSON.stringify(record));
  const mine = idDevice(record.id);
  const keys = (await store.list(FOLDER)).filter((key) => idDevice(key.slice(FOLDER.length + 1).replace(/\.json$/, "")) === mine);
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

/**
 * The run the next undo reverts: the newest that is not itself an undo and was not undone — of
 * this device's runs (and those of earlier versions, which named no device) when `writer` is given:
 * a run another device made, brought in by sync, is not what a user here expects undo to take back.
 */
export function lastUndoableRun(runs: readonly RunRecord[], writer?: WriterIdentity): RunRecord | null {
  const undone = undoneIds(runs);
  const ours = (r: RunRecord) => writer === undefined || r.writer.device === undefined || sameDevice(r.writer, writer);
  return runs.find((r) => r.operation !== "undo" && !undone.has(r.id) && ours(r)) ?? null;
}
