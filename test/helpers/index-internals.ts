/**
 * The index behind the door, for tests that look at its internals (its tables, its graph): src/
 * outside retrieval sees only `SearchIndex` (src/retrieval/index.ts); tests may look further. The
 * plugin's index runs behind a port: its VaultIndex is the one the in-process worker opened.
 */
import type { SearchIndex } from "../../src/retrieval";
import { VaultIndex } from "../../src/retrieval/vault-index";
import { indexBehind } from "./in-process-worker";

export async function readyIndex(service: { ready(): Promise<SearchIndex | null> } | null | undefined): Promise<VaultIndex | null | undefined> {
  const index = await service?.ready();
  if (!index) return index;
  return index instanceof VaultIndex ? index : indexBehind(index);
}
