/**
 * Levenshtein distance up to a small bound, for mistyped link names: lint compares every dangling
 * link with every name of about its length (thousands of them), so the comparison does as little
 * as it can. The common start and end of the two names are left out first (they change no
 * distance: "Topic 50 typo" against "Topic 1234" is "50 typo" against "1234"), then only the band
 * of cells within `max` of the diagonal is computed (a cell outside it is already more than `max`),
 * in two rows kept between calls, and the count stops as soon as a whole row is past `max`.
 */

let above = new Int32Array(64);
let row = new Int32Array(64);

/** The distance when it is at most `max`, otherwise `max + 1`. */
export function boundedEditDistance(a: string, b: string, max: number): number {
  const over = max + 1;
  if (Math.abs(a.length - b.length) > max) return over;
  let start = 0;
  let endA = a.length;
  let endB = b.length;
  while (start < endA && start < endB && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  if (n === 0 || m === 0) return Math.max(n, m) <= max ? Math.max(n, m) : over;
  if (above.length <= m) {
    above = new Int32Array(2 * (m + 1));
    row = new Int32Array(2 * (m + 1));
  }
  let previous = above;
  let current = row;
  for (let j = 0; j <= m; j++) previous[j] = Math.min(j, over);
  for (let i = 1; i <= n; i++) {
    const low = Math.max(1, i - max);
    const high = Math.min(m, i + max);
    // The cell left of the band: the first column is i, any other is outside the band.
    current[low - 1] = low === 1 ? Math.min(i, over) : over;
    let best = current[low - 1] ?? over;
    const ca = a.charCodeAt(start + i - 1);
    for (let j = low; j <= high; j++) {
      const cost = ca === b.charCodeAt(start + j - 1) ? 0 : 1;
      const value = Math.min((previous[j] ?? over) + 1, (current[j - 1] ?? over) + 1, (previous[j - 1] ?? over) + cost, over);
      current[j] = value;
      if (value < best) best = value;
    }
    // The cell right of the band, which the next row reads above it.
    if (high < m) current[high + 1] = over;
    if (best > max) return over;
    [previous, current] = [current, previous];
  }
  return Math.min(previous[m] ?? over, over);
}
