/**
 * `synapse lint --vault <dir> [--fix safe|all] [--dry-run] [--json]`: the wiki's health from a
 * terminal; fixes go through the write path (journaled, undoable with `synapse undo`). Exit 0 when
 * nothing is found, 1 when findings remain, 2 for a usage error, 4 when a provider failed.
 */
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { runLint, type LintReport } from "../lint/run-lint";
import { NodeVault } from "../vault/node-vault";
import { nodeWriteContext } from "../vault/node-write-context";
import { type CliIO, EXIT, UsageError, parseFlags } from "./io";
import { recoverVault } from "./recovery";
import { readVaultSettings } from "./vault-settings";

export { LINT_USAGE } from "./usage";


function parse(argv: readonly string[]) {
  return parseFlags({
    args: [...argv],
    allowPositionals: false,
    strict: true,
    options: { vault: { type: "string" }, fix: { type: "string" }, "dry-run": { type: "boolean" }, json: { type: "boolean" } },
  });
}

export function jsonLintReport(report: LintReport): string {
  return JSON.stringify({
    findings: report.findings.map((f) => ({ check: f.check, severity: f.severity, page: f.page, message: f.message, fixes: f.fixes.map((x) => ({ kind: x.kind, label: x.label, safe: x.safe })) })),
    counts: report.counts,
    fixed: report.fixed,
    usage: report.usage,
    error: report.error,
  });
}

function humanLintReport(report: LintReport, dryRun: boolean): string {
  if (report.error) return `Error (${report.error.kind}): ${report.error.message}\n`;
  const lines: string[] = [];
  if (report.fixed.length > 0) {
    lines.push(`${dryRun ? "Would fix (dry run, nothing written)" : "Fixed"} ${report.fixed.length}:`, ...report.fixed.map((f) => `  ${f.page}: ${f.fix}`), "");
  }
  lines.push(`Checked ${report.pages} page(s) in ${(report.durationMs / 1000).toFixed(1)} s: ${report.findings.length === 0 ? "no findings." : `${report.findings.length} finding(s).`}`);
  const byCheck = new Map<string, typeof report.findings>();
  for (const f of report.findings) byCheck.set(f.check, [...(byCheck.get(f.check) ?? []), f]);
  for (const [check, findings] of byCheck) {
    lines.push(`\n${check} (${findings.length})`);
    for (const f of findings) {
      lines.push(`  ${f.page}: ${f.message}`);
      for (const fix of f.fixes) lines.push(`    fix${fix.safe ? " (safe)" : ""}: ${fix.label}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

export async function runLintCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values } = parse(argv);
  if (!values.vault) throw new UsageError("--vault <dir> is required.");
  const vaultRoot = resolve(io.cwd, values.vault);
  if (!(await stat(vaultRoot).catch(() => null))?.isDirectory()) throw new UsageError(`The vault folder ${vaultRoot} does not exist.`);
  const loaded = await readVaultSettings(vaultRoot);
  for (const warning of loaded.warnings) io.stderr(`Warning: ${warning}\n`);
  if (values.fix !== undefined && values.fix !== "safe" && values.fix !== "all") throw new UsageError(`--fix takes safe or all, not "${values.fix}".`);
  const vault = new NodeVault(vaultRoot);
  const write = nodeWriteContext(vaultRoot, { kind: "cli", env: io.env, notify: (line) => io.stderr(`${line}\n`) });
  await recoverVault(vault, loaded.settings.wikiFolder, write, io);
  const report = await runLint(
    { vault, settings: loaded.settings, store: write.store, write },
    { ...(values.fix ? { fix: values.fix } : {}), ...(values["dry-run"] ? { dryRun: true } : {}) },
  );
  io.stdout(values.json ? `${jsonLintReport(report)}\n` : humanLintReport(report, values["dry-run"] === true));
  if (report.error) return report.error.kind === "input" ? EXIT.usage : report.error.kind === "vault" ? EXIT.failure : EXIT.provider;
  return report.findings.length === 0 ? EXIT.ok : 1;
}
