/**
 * Runs lint's exact checks once on a wiki folder on disk and prints one JSON line: how long the
 * snapshot and the checks took and the process's peak resident memory. Run as its own process by
 * lint.bench.ts, so the peak is lint's alone.
 */
import { performance } from "node:perf_hooks";
import { isExcluded } from "../src/core/perimeter";
import { exactChecks } from "../src/lint/exact-checks";
import { loadSnapshot } from "../src/lint/snapshot";
import { NodeVault } from "../src/vault/node-vault";

const root = process.argv[2];
if (!root) throw new Error("Usage: lint-wiki.ts <vault>");
const start = performance.now();
const snapshot = await loadSnapshot(new NodeVault(root), "wiki", (p) => isExcluded(p, []));
const findings = exactChecks({ snapshot, sourceChanged: () => false });
const ms = performance.now() - start;
// maxRSS is in kilobytes.
console.log(JSON.stringify({ ms, peakMb: process.resourceUsage().maxRSS / 1024, pages: snapshot.pages.length, findings: findings.length }));
