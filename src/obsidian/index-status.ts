/** The index's status-bar lines: a count while indexing, then while embedding; "" (hidden) when done. */
import type { SyncProgress } from "../retrieval";

const count = (n: number) => n.toLocaleString("en-US");

/** "Indexing 1,234 / 6,287". */
export function indexingStatus({ done, total }: SyncProgress): string {
  return done >= total ? "" : `Indexing ${count(done)} / ${count(total)}`;
}

/** "Embedding 120 / 6,287 notes". */
export function embeddingStatus({ done, total }: SyncProgress): string {
  return done >= total ? "" : `Embedding ${count(done)} / ${count(total)} notes`;
}
