/**
 * One lint run: snapshot the wiki once, run the exact checks, and report. Excluded folders are
 * neither read nor reported. Expected failures come back in the report, never as exceptions.
 */
import { toSynapseError, type ErrorKind } from "../core/errors";
import { isExcluded } from "../core/perimeter";
import type { Settings } from "../settings/schema";
import type { StateStore } from "../vault/state-store";
import type { VaultPort } from "../vault/vault-port";
import { noteFingerprint, SourceRegistry } from "../wiki/source-registry";
import { applyPlan, type WriteContext } from "../wiki/apply";
import { effectiveWikiFolder } from "../wiki/page-paths";
import type { PlannedChange } from "../wiki/planned-change";
import { CONTRADICTIONS_KEY, readContradictions } from "../wiki/contradictions";
import { contradictionFindings } from "./contradictions";
import { exactChecks } from "./exact-checks";
import { chooseFixes, planFixes, type ChosenFix } from "./fixes";
import { loadSnapshot, Resolver, type WikiSnapshot } from "./snapshot";
import { CHECKS, type Check, type Finding } from "./types";

export interface LintDeps {
  readonly vault: VaultPort;
  readonly settings: Settings;
  readonly store: StateStore;
  /** Needed to apply fixes: the write path's lock, journal and history. */
  readonly write?: WriteContext;
  /** Re-ingests a stale source note (the "re-ingest" fix); without it that fix is only listed. */
  readonly reingest?: (notePath: string) => Promise<void>;
  readonly now?: () => number;
}

export interface LintRequest {
  /** Apply the first safe fix of each finding, or the first fix of each. */
  readonly fix?: "safe" | "all";
  /** Plan the fixes and report them without writing anything. */
  readonly dryRun?: boolean;
  /** Chooses which planned changes are written (the review step); all of them without it. */
  readonly review?: (changes: readonly PlannedChange[]) => Promise<readonly PlannedChange[]>;
}

export interface FixedItem {
  readonly check: Check;
  readonly page: string;
  readonly fix: string;
}

export interface LintReport {
  /** What remains after the fixes (everything found, without fixes or with --dry-run). */
  readonly findings: readonly Finding[];
  /** The fixes applied (or, with dryRun, planned). */
  readonly fixed: readonly FixedItem[];
  /** The planned file changes of the fixes, for review and --diff. */
  readonly changes: readonly PlannedChange[];
  readonly counts: Readonly<Partial<Record<Check, number>>>;
  readonly pages: number;
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number; readonly costUsd: number | null };
  readonly error: { readonly kind: ErrorKind; readonly message: string } | null;
  readonly durationMs: number;
}

/** The source notes whose text changed since they were last ingested (by content hash). */
async function changedSources(snapshot: WikiSnapshot, vault: VaultPort, store: StateStore): Promise<Set<string>> {
  const registry = await new SourceRegistry(store).load();
  const resolver = new Resolver(snapshot);
  const notes = new Set(snapshot.pages.flatMap((p) => p.sources.map((s) => resolver.resolve(s)).filter((n): n is string => n !== null)));
  const changed = new Set<string>();
  for (const note of notes) {
    const entry = registry.notes[note.normalize("NFC")];
    if (!entry) continue;
    const text = await vault.read(note).catch(() => null);
    if (text !== null && (await noteFingerprint(text)) !== entry.hash) changed.add(note);
  }
  return changed;
}

/** The open contradictions of the record; a damaged record is itself a finding, never a failed lint. */
async function recordedContradictions(store: StateStore, snapshot: WikiSnapshot): Promise<Finding[]> {
  try {
    return contradictionFindings(await readContradictions(store), snapshot);
  } catch (thrown) {
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    return [{ check: "contradiction", severity: "error", page: CONTRADICTIONS_KEY, message, fixes: [] }];
  }
}

export function countByCheck(findings: readonly Finding[]): Partial<Record<Check, number>> {
  const counts: Partial<Record<Check, number>> = {};
  for (const check of CHECKS) {
    const n = findings.filter((f) => f.check === check).length;
    if (n > 0) counts[check] = n;
  }
  return counts;
}

function fixedItems(chosen: readonly ChosenFix[]): FixedItem[] {
  return chosen.map((c) => ({ check: c.finding.check, page: c.finding.page, fix: c.fix.label }));
}

async function check(deps: LintDeps): Promise<{ snapshot: WikiSnapshot; findings: Finding[] }> {
  const excluded = (path: string) => isExcluded(path, deps.settings.excludedFolders);
  const snapshot = await loadSnapshot(deps.vault, deps.settings.wikiFolder, excluded);
  const changed = await changedSources(snapshot, deps.vault, deps.store);
  const findings = exactChecks({ snapshot, sourceChanged: (note) => changed.has(note) });
  findings.push(...(await recordedContradictions(deps.store, snapshot)));
  return { snapshot, findings };
}

export async function runLint(deps: LintDeps, request: LintRequest = {}): Promise<LintReport> {
  const now = deps.now ?? (() => Date.now());
  const started = now();
  const usage = { inputTokens: 0, outputTokens: 0, costUsd: 0 };
  let fixed: FixedItem[] = [];
  let changes: readonly PlannedChange[] = [];
  try {
    let { snapshot, findings } = await check(deps);
    if (request.fix && findings.length > 0) {
      const chosen = chooseFixes(findings, request.fix).filter((c) => c.fix.kind !== "reingest" || deps.reingest);
      const plan = planFixes(snapshot, chosen, new Date(now()).toISOString().slice(0, 10));
      changes = plan.changes;
      fixed = fixedItems(plan.planned);
      if (!request.dryRun) {
        const selected = request.review ? await request.review(plan.changes) : plan.changes;
        if (!deps.write) throw new Error("Fixes need the write path; none was given.");
        if (selected.length > 0) {
          const label = `${plan.planned.length - plan.reingest.length} fixes`;
          await applyPlan(deps.vault, selected, { ...deps.write, operation: "lint", label, wikiFolder: effectiveWikiFolder(deps.settings.wikiFolder), maintainIndex: false, now });
        }
        for (const note of plan.reingest) await deps.reingest?.(note);
        ({ snapshot, findings } = await check(deps));
      }
    }
    return { findings, fixed, changes, counts: countByCheck(findings), pages: snapshot.pages.length, usage, error: null, durationMs: now() - started };
  } catch (thrown) {
    const error = toSynapseError(thrown);
    return { findings: [], fixed, changes, counts: {}, pages: 0, usage, error: { kind: error.kind, message: error.message }, durationMs: now() - started };
  }
}
