/**
 * `synapse retract <note> --vault <dir> [--dry-run] [--diff] [--json]`: a deleted (or excluded)
 * source note's part leaves the wiki in one run of the write path, undone by `synapse undo`.
 * Exit 0 when done (or nothing to do), 1 when the vault could not be written, 2 for a usage error
 * or a note that still exists.
 */
import { toSynapseError } from "../core/errors";
import { isExcluded } from "../core/perimeter";
import { NodeVault } from "../vault/node-vault";
import { effectiveWikiFolder } from "../wiki/page-paths";
import type { ReviewPlan } from "../wiki/review";
import { everything } from "../wiki/review";
import { retractNote, type RetractOutcome } from "../wiki/retract-run";
import { EXIT, UsageError, parseFlags, type CliIO } from "./io";
import { recoverVault } from "./recovery";
import { existingVaultRoot, settingsWithWarnings, cliWriteContext } from "./vault-root";

export { RETRACT_USAGE } from "./usage";

function parse(argv: readonly string[]) {
  return parseFlags({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: { vault: { type: "string" }, "dry-run": { type: "boolean" }, diff: { type: "boolean" }, json: { type: "boolean" }, verbose: { type: "boolean" } },
  });
}

function jsonOutcome(outcome: RetractOutcome | null, dryRun: boolean, diffs: ReadonlyMap<string, string> | null, error: { kind: string; message: string } | null): string {
  return JSON.stringify({
    note: outcome?.plan.notePath ?? null,
    dryRun,
    runId: outcome?.runId ?? null,
    changes: (outcome?.applied ?? []).map((p) => ({ path: p.path, action: p.action, detail: p.detail, ...(diffs?.has(p.path) ? { diff: diffs.get(p.path) } : {}) })),
    kept: outcome?.plan.kept ?? [],
    error,
  });
}

function humanOutcome(outcome: RetractOutcome, dryRun: boolean): string {
  const { plan, applied } = outcome;
  const lines: string[] = [];
  if (plan.changes.length === 0) lines.push(`Nothing of ${plan.notePath} is left to retract.`);
  else lines.push(`${dryRun ? "Would retract" : "Retracted"} ${plan.notePath}: ${applied.length} page(s)${dryRun ? "" : "; synapse undo takes it back"}.`);
  for (const page of applied) lines.push(`  ${page.action} ${page.path}: ${page.detail}`);
  for (const kept of plan.kept) lines.push(`  kept ${kept.path}: ${kept.detail}`);
  return `${lines.join("\n")}\n`;
}

export async function runRetractCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(argv);
  if (positionals.length !== 1) throw new UsageError("Name one source note to retract, such as notes/Ada.md.");
  const root = await existingVaultRoot(values.vault, io);
  const { settings } = await settingsWithWarnings(root, io);
  const vault = new NodeVault(root);
  const write = cliWriteContext(root, io);
  const wikiFolder = effectiveWikiFolder(settings.wikiFolder);
  const json = values.json === true;
  const dryRun = values["dry-run"] === true;
  await recoverVault(vault, wikiFolder, write, io, "write");
  const diffs = values.diff ? new Map<string, string>() : null;
  const review = (plan: ReviewPlan) => {
    for (const change of plan.changes) {
      diffs?.set(change.path, change.diff);
      if (!json) io.stdout(change.diff.endsWith("\n") ? change.diff : `${change.diff}\n`);
    }
    return Promise.resolve(everything(plan));
  };
  try {
    const outcome = await retractNote(vault, write, {
      notePath: positionals[0] ?? "",
      wikiFolder,
      isExcluded: (path) => isExcluded(path, settings.excludedFolders),
      date: new Date().toISOString().slice(0, 10),
      ...(dryRun ? { dryRun: true } : {}),
      ...(diffs ? { review } : {}),
    });
    io.stdout(json ? `${jsonOutcome(outcome, dryRun, diffs, null)}\n` : humanOutcome(outcome, dryRun));
    return EXIT.ok;
  } catch (thrown) {
    const error = toSynapseError(thrown, "vault");
    if (json) io.stdout(`${jsonOutcome(null, dryRun, null, { kind: error.kind, message: error.message })}\n`);
    else io.stderr(`Error (${error.kind}): ${error.message}\n`);
    return error.kind === "input" ? EXIT.usage : EXIT.failure;
  }
}
