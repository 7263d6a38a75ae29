/**
 * Chosen merges can chain: "keep A, remove B" and "keep B, remove C" in one run. Merging pair by
 * pair would edit B and then delete it, losing C. So the merges are grouped first (union-find):
 * every removed page goes to the page that survives its whole chain, the final keeper, which takes
 * the content, aliases and sources of each and receives every link to any of them.
 */

export interface MergePair<T> {
  readonly keep: string;
  readonly remove: string;
  /** What asked for the merge (the chosen fix), handed back with the outcome. */
  readonly by: T;
}

export interface MergeGroups<T> {
  /** Each merge that goes ahead, with the page that finally keeps what it removes, in the order chosen. */
  readonly merges: readonly { readonly remove: string; readonly keeper: string; readonly by: T }[];
  /** Merges left out, with why: their page is already merged away, or both pages end up as one. */
  readonly skipped: readonly { readonly by: T; readonly reason: string }[];
}

export function mergeGroups<T>(pairs: readonly MergePair<T>[]): MergeGroups<T> {
  // parent.get(p) is the page p is merged into; a page with no entry survives (a root).
  const parent = new Map<string, string>();
  const root = (page: string): string => {
    let at = page;
    for (let next = parent.get(at); next !== undefined; next = parent.get(at)) at = next;
    return at;
  };
  const accepted: MergePair<T>[] = [];
  const skipped: { by: T; reason: string }[] = [];
  for (const pair of pairs) {
    if (parent.has(pair.remove)) {
      // Merging it again would take its keeper away too, which nobody chose.
      skipped.push({ by: pair.by, reason: `${pair.remove} is already merged into ${root(pair.remove)} in the same run.` });
      continue;
    }
    const keeper = root(pair.keep);
    if (keeper === pair.remove) {
      skipped.push({ by: pair.by, reason: `${pair.keep} is already merged into ${pair.remove} in the same run.` });
      continue;
    }
    parent.set(pair.remove, keeper);
    accepted.push(pair);
  }
  // Keepers are read only now: a later merge can move a whole group under another page.
  return { merges: accepted.map((p) => ({ remove: p.remove, keeper: root(p.remove), by: p.by })), skipped };
}
