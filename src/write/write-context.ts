/**
 * The write path's contract with the composition roots, in a file of its own so the roots and the
 * vault adapters that build it (node/write-context.ts, obsidian/write-context.ts) depend on
 * this small type, not on the apply engine.
 */
import type { StateStore } from "../vault/state-store";
import type { LockOptions } from "./write-lock";
import type { WriterIdentity } from "./write-records";

/** What a composition root (plugin, CLI, bridge) builds once and every operation reuses. */
export interface WriteContext {
  /** Where the journal, the lock and the history live. */
  readonly store: StateStore;
  /** Who writes, as other writers will name it. */
  readonly writer: WriterIdentity;
  /** Lock tuning: process liveness (CLI, bridge), how long to wait for another writer, a wait notice. */
  readonly lock?: Pick<LockOptions, "isAlive" | "waitMs" | "onWait" | "staleAfterMs" | "heartbeatMs" | "monotonic" | "sleep">;
  /** Test seam: awaited after each file is written (the crash test pauses there). */
  readonly afterEachWrite?: (path: string) => Promise<void>;
}
