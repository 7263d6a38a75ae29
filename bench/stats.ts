/** Small helpers shared by the benchmarks. */
export interface BenchResult {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly target?: string;
  readonly pass?: boolean;
  readonly note?: string;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

export function printResults(results: readonly BenchResult[]): void {
  const width = Math.max(...results.map((r) => r.name.length));
  for (const r of results) {
    const value = Number.isInteger(r.value) ? String(r.value) : r.value.toFixed(2);
    const verdict = r.pass === undefined ? "" : r.pass ? `  ok (target ${r.target ?? ""})` : `  MISSED (target ${r.target ?? ""})`;
    console.log(`${r.name.padEnd(width)}  ${value.padStart(10)} ${r.unit}${verdict}${r.note ? `  — ${r.note}` : ""}`);
  }
}
