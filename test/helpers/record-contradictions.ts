/**
 * Seeds the contradictions record as a run would leave it, for tests that need one already there.
 * Synapse itself only changes the record through the write path (`contradictionsFoundChange`).
 */
import type { StateStore } from "../../src/vault/state-store";
import { CONTRADICTIONS_KEY, contradictionsFoundChange, readContradictions, type Contradiction, type ContradictionRecord } from "../../src/wiki/contradictions";

export async function recordContradictions(store: StateStore, found: readonly Contradiction[], date: string): Promise<ContradictionRecord[]> {
  const next = contradictionsFoundChange(found, date).update(await store.read(CONTRADICTIONS_KEY), null);
  if (next !== null) await store.write(CONTRADICTIONS_KEY, next);
  return readContradictions(store);
}
