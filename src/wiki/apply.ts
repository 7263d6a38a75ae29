/**
 * Applying a plan: every change or none. Each write is journaled with what the file held before;
 * if any write fails, the ones already made are undone, so a failure never leaves a half-written wiki.
 */
import { SynapseError } from "../core/errors";
import type { VaultPort } from "../vault/vault-port";
import type { PageAction } from "./ingest-types";
import type { PlannedChange } from "./plan";

export interface AppliedChange {
  readonly path: string;
  readonly action: PageAction;
}

interface JournalEntry {
  readonly path: string;
  /** What the file held before, or null when this run created it. */
  readonly previous: string | null;
}

async function rollBack(vault: VaultPort, journal: readonly JournalEntry[]): Promise<string[]> {
  const failed: string[] = [];
  for (const entry of [...journal].reverse()) {
    try {
      if (entry.previous === null) await vault.remove(entry.path);
      else {
        const previous = entry.previous;
        await vault.process(entry.path, () => previous);
      }
    } catch {
      failed.push(entry.path);
    }
  }
  return failed;
}

export async function applyPlan(vault: VaultPort, changes: readonly PlannedChange[]): Promise<AppliedChange[]> {
  const journal: JournalEntry[] = [];
  const applied: AppliedChange[] = [];
  for (const change of changes) {
    try {
      if (change.create !== undefined) {
        await vault.create(change.path, change.create);
        journal.push({ path: change.path, previous: null });
        applied.push({ path: change.path, action: "created" });
      } else if (change.update) {
        const update = change.update;
        let previous = "";
        let action: PageAction = "unchanged";
        await vault.process(change.path, (current) => {
          previous = current;
          const next = update(current);
          action = next.action;
          return next.content;
        });
        if (action !== "unchanged") journal.push({ path: change.path, previous });
        applied.push({ path: change.path, action });
      }
    } catch (cause) {
      const failed = await rollBack(vault, journal);
      const reason = cause instanceof Error ? cause.message : String(cause);
      const undo =
        failed.length === 0
          ? `the ${journal.length} change(s) already made were undone`
          : `these files could not be restored: ${failed.join(", ")}`;
      throw new SynapseError("vault", `Writing "${change.path}" failed (${reason}); ${undo}.`, { cause });
    }
  }
  return applied;
}
