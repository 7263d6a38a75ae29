/** The registry of ingested notes a vault on disk holds, read as Synapse reads it (every shard). */
import { NodeStateStore } from "../../src/vault/node-state-store";
import { SourceRegistry, type SourceEntry } from "../../src/wiki/source-registry";

export async function recordedNotes(vaultRoot: string): Promise<Record<string, SourceEntry>> {
  return (await new SourceRegistry(NodeStateStore.forVault(vaultRoot)).load()).notes;
}
