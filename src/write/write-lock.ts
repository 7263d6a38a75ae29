/**
 * One writer per copy of the vault. The plugin, the CLI and the bridge take this device's lock
 * (`locks/<device>.json` in the StateStore, created exclusively) before they change a file, and give
 * it back after. Writes on another device change another copy: its lock, brought in by sync, is
 * never looked at (see `writer-device.ts`). A lock names its owner, so a second writer can say who
 * is busy. Its owner is judged alive while its heartbeat value changes, as timed by this device's
 * monotonic clock, never by comparing the lock's times with a clock: a lock whose heartbeat stopped
 * for the stale interval is taken over, whatever its process id; on the same host a process id
 * that is not running frees it at once. The same mechanism under another key (`LockOptions.key`)
 * guards something narrower than the vault: a batch ingest's collect (`batch/batch-lock.ts`).
 */
import { SynapseError } from "../core/errors";
import type { StateStore } from "../vault/state-store";
import { LockSchema, parseRecord, type LockRecord, type WriterIdentity } from "./write-records";
import { deviceName, isLegacyRecordOf, LEGACY_LOCK_KEY, lockKeyOf, sameDevice } from "./writer-device";

/** The lock of a writer that names no device (and of earlier versions). */
export const LOCK_KEY = LEGACY_LOCK_KEY;

export interface LockOptions {
  readonly writer: WriterIdentity;
  /** What the writer is doing, shown to a writer that has to wait ("ingest of “Note”"). */
  readonly activity: string;
  /** The wall clock, for the lock's `started` (named in messages on this device only). */
  readonly now?: () => number;
  /** This device's monotonic clock, in ms (`performance.now()`): times how long a heartbeat stood still. */
  readonly monotonic?: () => number;
  /** Waits between two looks at a busy lock (a test passes one that moves its fake clock). */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Does this process id run on this host? Only roots that can tell (CLI, bridge) pass it. */
  readonly isAlive?: (pid: number) => boolean;
  /** How long to wait for another writer before giving up; 0 gives up at once. */
  readonly waitMs?: number;
  /** Called once when the lock is busy and the writer starts waiting. */
  readonly onWait?: (holder: LockRecord) => void;
  /** A lock whose heartbeat did not change for this long is stale (its owner stopped without a trace). */
  readonly staleAfterMs?: number;
  /** How often a held lock's heartbeat is refreshed. */
  readonly heartbeatMs?: number;
  /**
   * The lock's key in the StateStore, for a lock of something narrower than the vault (a batch
   * ingest's collect); by default this device's write lock. Such a lock has no earlier version's
   * key to honour.
   */
  readonly key?: string;
  /** The sentence a writer that gives up reads, given who holds the lock; by default the write lock's. */
  readonly busy?: (holder: string) => string;
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

/**
 * "the Synapse command line (process 4242 on laptop), ingest of “Note”, since 18:02:11 UTC". The
 * time is named only when `self` is on the device that wrote the lock and that time has come by its
 * clock: another clock's time would read as if it were this one's.
 */
export function describeHolder(lock: LockRecord, self?: WriterIdentity, now: number = Date.now()): string {
  const where = [lock.writer.pid !== null ? `process ${lock.writer.pid}` : null, lock.writer.host ? `on ${lock.writer.host}` : null].filter(Boolean).join(" ");
  const foreign = self !== undefined && !sameDevice(lock.writer, self);
  const device = foreign ? `, on ${deviceName(lock.writer)}` : "";
  const since = !foreign && lock.started <= now ? `, since ${new Date(lock.started).toISOString().slice(11, 19)} UTC` : "";
  return `${KIND_NAMES[lock.writer.kind]}${where ? ` (${where})` : ""}${device}, ${lock.activity}${since}`;
}

function randomToken(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

/** Tokens of the locks this program holds now: its own live locks are never judged by pid or kind. */
const HELD_HERE = new Set<string>();

/** Free at once, without watching its heartbeat: a lock cut short, or one whose owner is known gone. */
function ownerIsGone(lock: LockRecord | null, writer: WriterIdentity, isAlive: LockOptions["isAlive"]): boolean {
  // A lock file that does not parse was cut short by a crash while being created.
  if (!lock) return true;
  if (HELD_HERE.has(lock.token)) return false;
  const held = lock.writer;
  if (held.host !== null && held.host === writer.host && held.pid !== null && isAlive) {
    if (held.pid === writer.pid) return true; // our own pid: a dead predecessor's lock
    if (!isAlive(held.pid)) return true;
  }
  // Obsidian opens a vault once per device: a plugin's lock on this device is a closed predecessor's.
  return writer.kind === "plugin" && held.kind === "plugin" && writer.device !== undefined && sameDevice(held, writer);
}

async function readLock(store: StateStore, key: string): Promise<{ text: string; lock: LockRecord | null } | null> {
  const text = await store.read(key);
  if (text === null) return null;
  const parsed = parseRecord(LockSchema, text);
  return { text, lock: parsed.ok ? parsed.value : null };
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const realMonotonic = () => performance.now();

/** Watches one lock's heartbeat: when its value last changed, by this device's monotonic clock. */
class HeartbeatWatch {
  private seen: string | null = null;
  private since = 0;

  /** Has the holder's heartbeat stood still for longer than `staleAfterMs`? */
  stoodStill(text: string, lock: LockRecord | null, at: number, staleAfterMs: number): boolean {
    // The token too: a new holder with the same heartbeat value is another holder.
    const value = lock ? `${lock.token}\n${lock.heartbeat}` : text;
    if (value !== this.seen) {
      this.seen = value;
      this.since = at;
      return false;
    }
    return at - this.since > staleAfterMs;
  }
}

/**
 * The previous version's lock (`lock.json`, one for every device) when this device's writer holds
 * it and is alive, else null. It is judged by the same rule as this device's lock: a dead process
 * id on this host or a heartbeat that stood still frees it (then it is removed), and the previous
 * plugin's lock is a closed predecessor's, as the plugin's own lock is. Another device's is never
 * looked at, nor one that does not parse (whose device cannot be told).
 */
async function liveLegacyLock(store: StateStore, options: LockOptions, watch: HeartbeatWatch, at: number, staleAfterMs: number): Promise<LockRecord | null> {
  if (options.writer.device === undefined) return null; // its own lock is that key
  const current = await readLock(store, LEGACY_LOCK_KEY);
  if (!current?.lock || !isLegacyRecordOf(current.lock.writer, options.writer)) return null;
  const { lock } = current;
  const gone = ownerIsGone(lock, options.writer, options.isAlive) || lock.writer.host === null || watch.stoodStill(current.text, lock, at, staleAfterMs);
  if (!gone) return lock;
  if ((await store.read(LEGACY_LOCK_KEY)) === current.text) await store.remove(LEGACY_LOCK_KEY);
  return null;
}

/**
 * Takes this device's write lock, waiting up to `waitMs` for another writer; fails with a message
 * naming that writer when it is still busy.
 */
export async function acquireWriteLock(store: StateStore, options: LockOptions): Promise<WriteLock> {
  const now = options.now ?? (() => Date.now());
  const monotonic = options.monotonic ?? realMonotonic;
  const sleep = options.sleep ?? realSleep;
  const staleAfterMs = options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
  const key = options.key ?? lockKeyOf(options.writer);
  const token = randomToken();
  const deadline = monotonic() + (options.waitMs ?? 0);
  const watch = new HeartbeatWatch();
  const legacyWatch = new HeartbeatWatch();
  let waited = false;
  let holder: LockRecord | null = null;
  // Tries again at once after a race or a takeover, a few times at most, then waits its turn.
  let retries = 0;
  for (;;) {
    const legacy = options.key === undefined ? await liveLegacyLock(store, options, legacyWatch, monotonic(), staleAfterMs) : null;
    if (legacy) {
      holder = legacy;
      if (monotonic() >= deadline) break;
      if (!waited && (options.waitMs ?? 0) > 0) {
        waited = true;
        options.onWait?.(legacy);
      }
      await sleep(POLL_MS);
      continue;
    }
    const record: LockRecord = { version: 1, writer: options.writer, token, activity: options.activity, started: now(), heartbeat: now() };
    if (await store.createExclusive(key, JSON.stringify(record))) {
      const back = await readLock(store, key);
      if (back?.lock?.token === token) return holdLock(store, key, record, options, now);
      if (retries++ < 5) continue;
    }
    const current = await readLock(store, key);
    if (current) {
      const gone = ownerIsGone(current.lock, options.writer, options.isAlive) || watch.stoodStill(current.text, current.lock, monotonic(), staleAfterMs);
      if (gone && retries++ < 5) {
        // Remove only the lock we judged, not one a third writer took meanwhile.
        if ((await store.read(key)) === current.text) await store.remove(key);
        continue;
      }
      holder = current.lock;
      if (!waited && holder && (options.waitMs ?? 0) > 0) {
        waited = true;
        options.onWait?.(holder);
      }
    }
    // Released between our two calls: try again at once.
    if (!current && retries++ < 5) continue;
    if (monotonic() >= deadline) break;
    await sleep(POLL_MS);
  }
  const who = holder ? describeHolder(holder, options.writer, now()) : "another Synapse writer";
  throw new SynapseError("vault", options.busy ? options.busy(who) : `Another writer is changing this vault: ${who}. Nothing was written; try again when it has finished.`);
}

function holdLock(store: StateStore, key: string, record: LockRecord, options: LockOptions, now: () => number): WriteLock {
  let released = false;
  let heartbeat = record.heartbeat;
  HELD_HERE.add(record.token);
  const beat = async () => {
    const current = await readLock(store, key).catch(() => null);
    if (released || current?.lock?.token !== record.token) return;
    // Only the change counts (see HeartbeatWatch); a clock set back must not repeat a value.
    heartbeat = Math.max(now(), heartbeat + 1);
    await store.write(key, JSON.stringify({ ...record, heartbeat })).catch(() => undefined);
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
      HELD_HERE.delete(record.token);
      const current = await readLock(store, key);
      if (current?.lock?.token === record.token) await store.remove(key);
    },
  };
}
