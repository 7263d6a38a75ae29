/**
 * One writer per vault. The plugin, the CLI and the bridge all take `lock.json` in the StateStore
 * (created exclusively) before they change a file, and give it back after. A lock names its owner,
 * so a second writer can say who is busy; a lock whose owner died is taken over: on the same host
 * a dead process id tells (where the root can check one), elsewhere a heartbeat that stopped.
 */
import { SynapseError } from "../core/errors";
import type { StateStore } from "../vault/state-store";
import { LockSchema, parseRecord, type LockRecord, type WriterIdentity } from "./write-records";

export const LOCK_KEY = "lock.json";

export interface LockOptions {
  readonly writer: WriterIdentity;
  /** What the writer is doing, shown to a writer that has to wait ("ingest of “Note”"). */
  readonly activity: string;
  readonly now?: () => number;
  /** Does this process id run on this host? Only roots that can tell (CLI, bridge) pass it. */
  readonly isAlive?: (pid: number) => boolean;
  /** How long to wait for another writer before giving up; 0 gives up at once. */
  readonly waitMs?: number;
  /** Called once when the lock is busy and the writer starts waiting. */
  readonly onWait?: (holder: LockRecord) => void;
  /** A lock whose heartbeat is older than this is stale (its owner stopped without a trace). */
  readonly staleAfterMs?: number;
  /** How often a held lock's heartbeat is refreshed. */
  readonly heartbeatMs?: number;
}

export interface WriteLock {
  readonly token: string;
  /** Gives the lock back; does nothing when it is no longer ours. */
  release(): Promise<void>;
}

export const DEFAULT_STALE_AFTER_MS = 60_000;
const DEFAULT_HEARTBEAT_MS = 10_000;
const POLL_MS = 200;

const KIND_NAMES: Readonly<Record<WriterIdentity["kind"], string>> = {
  plugin: "the Synapse plugin in Obsidian",
  cli: "the Synapse command line",
  bridge: "the Synapse bridge",
};

/** "the Synapse command line (process 4242 on laptop), ingest of “Note”, since 18:02:11 UTC". */
export function describeHolder(lock: LockRecord): string {
  const where = [lock.writer.pid !== null ? `process ${lock.writer.pid}` : null, lock.writer.host ? `on ${lock.writer.host}` : null].filter(Boolean).join(" ");
  const since = new Date(lock.started).toISOString().slice(11, 19);
  return `${KIND_NAMES[lock.writer.kind]}${where ? ` (${where})` : ""}, ${lock.activity}, since ${since} UTC`;
}

function randomToken(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

function isStale(lock: LockRecord | null, options: LockOptions, now: number): boolean {
  // A lock file that does not parse was cut short by a crash while being created.
  if (!lock) return true;
  const { writer, isAlive } = options;
  const sameHost = lock.writer.host !== null && lock.writer.host === writer.host;
  if (sameHost && lock.writer.pid !== null && isAlive) {
    if (lock.writer.pid === writer.pid) return true; // our own pid: a dead predecessor's lock
    return !isAlive(lock.writer.pid);
  }
  return now - lock.heartbeat > (options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS);
}

async function readLock(store: StateStore): Promise<{ text: string; lock: LockRecord | null } | null> {
  const text = await store.read(LOCK_KEY);
  if (text === null) return null;
  const parsed = parseRecord(LockSchema, text);
  return { text, lock: parsed.ok ? parsed.value : null };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Takes the vault's write lock, waiting up to `waitMs` for another writer; fails with a message
 * naming that writer when it is still busy.
 */
export async function acquireWriteLock(store: StateStore, options: LockOptions): Promise<WriteLock> {
  const now = options.now ?? (() => Date.now());
  const token = randomToken();
  const attempts = Math.max(1, Math.ceil((options.waitMs ?? 0) / POLL_MS) + 1);
  let waited = false;
  let retries = 0;
  let holder: LockRecord | null = null;
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (attempt > 0) await sleep(POLL_MS);
    const record: LockRecord = { version: 1, writer: options.writer, token, activity: options.activity, started: now(), heartbeat: now() };
    if (await store.createExclusive(LOCK_KEY, JSON.stringify(record))) {
      const back = await readLock(store);
      if (back?.lock?.token === token) return holdLock(store, record, options, now);
      continue;
    }
    const current = await readLock(store);
    // Released between our two calls, or stale: try again at once (a few times at most).
    if (!current && retries++ < 5) {
      attempt -= 1;
      continue;
    }
    if (current && isStale(current.lock, options, now()) && retries++ < 5) {
      // Remove only the stale lock we judged, not one a third writer took meanwhile.
      if ((await store.read(LOCK_KEY)) === current.text) await store.remove(LOCK_KEY);
      attempt -= 1;
      continue;
    }
    if (!current) continue;
    holder = current.lock;
    if (!waited && holder && attempts > 1) {
      waited = true;
      options.onWait?.(holder);
    }
  }
  const who = holder ? describeHolder(holder) : "another Synapse writer";
  throw new SynapseError("vault", `Another writer is changing this vault: ${who}. Nothing was written; try again when it has finished.`);
}

function holdLock(store: StateStore, record: LockRecord, options: LockOptions, now: () => number): WriteLock {
  let released = false;
  const beat = async () => {
    const current = await readLock(store).catch(() => null);
    if (released || current?.lock?.token !== record.token) return;
    await store.write(LOCK_KEY, JSON.stringify({ ...record, heartbeat: now() })).catch(() => undefined);
  };
  const timer = setInterval(() => void beat(), options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
  // A Node process must not stay alive for a heartbeat alone.
  (timer as { unref?: () => void }).unref?.();
  return {
    token: record.token,
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      const current = await readLock(store);
      if (current?.lock?.token === record.token) await store.remove(LOCK_KEY);
    },
  };
}
