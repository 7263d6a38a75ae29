/** Records a note in the registry of ingested notes as an ingest does: through a write run. */
import type { StateStore } from "../../src/vault/state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import type { VaultPort } from "../../src/vault/vault-port";
import { applyPlan, type WriteContext } from "../../src/write/apply";
import { SourceRegistry, type RecordedEntry } from "../../src/wiki/source-registry";

export async function recordSource(
  store: StateStore,
  notePath: string,
  entry: RecordedEntry,
  movedFrom: string | null = null,
  options: { vault?: VaultPort; lock?: WriteContext["lock"] } = {},
): Promise<void> {
  const state = await new SourceRegistry(store).recordChange(notePath, entry, movedFrom);
  const writer = { kind: "cli" as const, pid: null, host: null };
  await applyPlan(options.vault ?? new MemoryVault(), [], { store, writer, ...(options.lock ? { lock: options.lock } : {}), operation: "ingest", label: notePath, wikiFolder: "wiki", state });
}
