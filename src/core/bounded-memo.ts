/**
 * A pure function of a string, remembered: used where the same keys come back on every ingest
 * (vault paths, page titles). Bounded: once `limit` answers are kept it starts afresh, so a long
 * session does not keep every key it ever saw, and a refill costs no more than the first fill.
 */
export function boundedMemo<T>(compute: (key: string) => T, limit: number): (key: string) => T {
  const known = new Map<string, T>();
  return (key) => {
    let found = known.get(key);
    if (found === undefined) {
      found = compute(key);
      if (known.size >= limit) known.clear();
      known.set(key, found);
    }
    return found;
  };
}
