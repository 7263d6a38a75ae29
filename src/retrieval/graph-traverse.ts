/**
 * Walks the link graph out from one note, nearest first: how graph expansion's reach is checked
 * (tests, benchmarks). Search itself follows one hop (`GraphIndex.neighbours`), so this stays out
 * of a bundle that never walks further.
 */
import { retrievalError } from "./errors";
import { checkPath, type GraphIndex } from "./graph-index";

export interface GraphHit {
  readonly path: string;
  /** Hops from the start. */
  readonly depth: number;
  /** 1 / (1 + depth): higher is closer. */
  readonly score: number;
}

export const MAX_DEPTH = 6;

/** Every note within `depth` hops (links, embeds, sources, backlinks), nearest first. */
export function traverse(graph: GraphIndex, start: string, depth: number): readonly GraphHit[] {
  checkPath(start);
  if (!Number.isInteger(depth) || depth < 0 || depth > MAX_DEPTH) {
    throw retrievalError(`The traversal depth must be a whole number from 0 to ${MAX_DEPTH} (got ${String(depth)}).`);
  }
  const seen = new Map<string, number>([[start, 0]]);
  let frontier = graph.has(start) ? [start] : [];
  for (let d = 1; d <= depth && frontier.length > 0; d++) {
    const next: string[] = [];
    for (const p of frontier) {
      for (const n of graph.neighbours(p)) {
        if (seen.has(n.path)) continue;
        seen.set(n.path, d);
        next.push(n.path);
      }
    }
    frontier = next;
  }
  seen.delete(start);
  const hits = [...seen].map(([path, d]) => Object.freeze({ path, depth: d, score: 1 / (1 + d) }));
  hits.sort((a, b) => a.depth - b.depth || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return Object.freeze(hits);
}
