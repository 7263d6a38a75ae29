/** What `synapse lint` prints: the documented JSON object, or lines for a person. */
import { plural } from "../core/plural";
import type { ModelCheckSummary } from "../lint/model-checks";
export { estimateLine } from "../lint/estimate-text";
import { notCheckedParts, recordedRunLine, spentLine } from "../lint/estimate-text";
import { fixId } from "../lint/fix-id";
import type { LintReport } from "../lint/run-lint";
import type { Finding } from "../lint/types";
import type { SettleReport } from "../lint/settle-contradiction";
import { basenameOf } from "../wiki/page-paths";

/**
 * Each finding's page as the plugin's view names it (its file name, which is its title), with the
 * path only where two pages of the report share the name.
 */
function pageNames(paths: readonly string[]): (path: string) => string {
  const counts = new Map<string, number>();
  for (const path of new Set(paths)) counts.set(basenameOf(path).toLowerCase(), (counts.get(basenameOf(path).toLowerCase()) ?? 0) + 1);
  return (path) => ((counts.get(basenameOf(path).toLowerCase()) ?? 0) > 1 ? `${basenameOf(path)} (${path})` : basenameOf(path));
}

/** The id --resolve and --dismiss take; the message itself names the sources, not the record. */
function contradictionId(f: Finding): string | undefined {
  for (const fix of f.fixes) if (fix.kind === "resolve-contradiction" || fix.kind === "dismiss-contradiction") return fix.params.id;
  return undefined;
}

/** The `--json` object; `modelChecks` is added only when the model checks were asked for. */
export function jsonLintReport(report: LintReport): string {
  return JSON.stringify({
    findings: report.findings.map((f) => {
      const id = contradictionId(f);
      return { check: f.check, severity: f.severity, page: f.page, message: f.message, ...(id ? { id } : {}), fixes: f.fixes.map((x) => ({ id: fixId(f, x), kind: x.kind, label: x.label, safe: x.safe })) };
    }),
    counts: report.counts,
    fixed: report.fixed,
    usage: report.usage,
    error: report.error,
    ...(report.modelChecks ? { modelChecks: report.modelChecks } : {}),
  });
}

function summaryLine(m: ModelCheckSummary): string {
  const parts = [`${plural(m.checked, "pair")} checked`, `${m.cached} from the cache`];
  parts.push(...notCheckedParts(m));
  if (m.overBudget > 0) parts.push(`${m.overBudget} over the token budget`);
  if (m.overCost > 0) parts.push(`${m.overCost} over the cost limit`);
  const recorded = recordedRunLine(m);
  return `Model checks: ${parts.join(", ")}.${recorded ? ` ${recorded}` : ""}`;
}

export function humanLintReport(report: LintReport, dryRun: boolean): string {
  const lines: string[] = [];
  if (report.error) {
    if (report.pages === 0) return `Error (${report.error.kind}): ${report.error.message}\n`;
    lines.push(`Error (${report.error.kind}): ${report.error.message}`, "");
  }
  if (report.modelChecks) lines.push(summaryLine(report.modelChecks), "");
  const spent = spentLine(report.usage);
  if (spent) lines.push(spent, "");
  const named = pageNames([...report.findings.map((f) => f.page), ...report.fixed.map((f) => f.page)]);
  if (report.fixed.length > 0) {
    lines.push(`${dryRun ? "Would fix (dry run, nothing written)" : "Fixed"} ${report.fixed.length}:`, ...report.fixed.map((f) => `  ${named(f.page)}: ${f.fix}`), "");
  }
  lines.push(`Checked ${plural(report.pages, "page")} in ${(report.durationMs / 1000).toFixed(1)} s: ${report.findings.length === 0 ? "no findings." : `${plural(report.findings.length, "finding")}.`}`);
  const byCheck = new Map<string, typeof report.findings>();
  for (const f of report.findings) byCheck.set(f.check, [...(byCheck.get(f.check) ?? []), f]);
  for (const [check, findings] of byCheck) {
    lines.push(`\n${check} (${findings.length})`);
    for (const f of findings) {
      const id = contradictionId(f);
      lines.push(`  ${named(f.page)}: ${f.message}${id ? ` (id ${id})` : ""}`);
      for (const fix of f.fixes) lines.push(`    fix${fix.safe ? " (safe)" : ""}: ${fix.label}${fix.detail ? `: ${fix.detail.charAt(0).toLowerCase()}${fix.detail.slice(1)}` : ""}`);
    }
  }
  if (report.findings.some((f) => f.check === "contradiction" && f.fixes.length > 0)) {
    lines.push("", "Settle a contradiction with --resolve <id> --keep 1|2 (or a source), or --dismiss <id>.");
  }
  return `${lines.join("\n")}\n`;
}

export function jsonSettleReport(settled: SettleReport | null, error: { kind: string; message: string } | null): string {
  return JSON.stringify({ contradiction: settled?.contradiction ?? null, changed: settled?.changed ?? [], error });
}

export function humanSettleReport(settled: SettleReport): string {
  const c = settled.contradiction;
  const head = c.status === "dismissed" ? `Dismissed ${c.id}; lint will not raise it again unless its passages change.` : `Resolved ${c.id} (${c.resolution ?? "resolved"}).`;
  const pages = settled.changed.length > 0 ? `\nEdited ${settled.changed.join(", ")} (undo with synapse undo).` : "";
  return `${head}${pages}\n`;
}
