/**
 * The index behind the door, for tests that look at its internals (its tables, its graph): src/
 * outside retrieval sees only `SearchIndex` (src/retrieval/index.ts); tests may look further.
 */
import type { SearchIndex } from "../../src/retrieval";
import { VaultIndex } from "../../src/retrieval/vault-index";

export async function readyIndex(service: { ready(): Promise<SearchIndex | null> } | null | undefined): Promise<VaultIndex | null | undefined> {
  const index = await service?.ready();
  if (index && !(index instanceof VaultIndex)) throw new Error("The open index is not a VaultIndex.");
  return index;
}
