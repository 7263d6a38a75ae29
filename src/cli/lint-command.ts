/**
 * `synapse lint --vault <dir> [--model-checks [--max-cost <usd>]] [--fix safe|all] [--dry-run] [--json]`: the wiki's
 * health from a terminal; fixes go through the write path (journaled, undoable with `synapse undo`). Exit 0 when
 * nothing is found, 1 when findings remain, 2 for a usage error, 4 when a provider failed.
 * `--resolve <id> --keep 1|2|<source>` and `--dismiss <id>` settle one recorded contradiction.
 */
import { SynapseError, toSynapseError } from "../core/errors";
import { MemoryRunLogger } from "../core/log";
import type { InferenceProvider } from "../core/provider";
import type { ModelCheckEstimate } from "../lint/model-checks";
import { runLint, type LintDeps } from "../lint/run-lint";
import { dismissContradiction, resolveContradiction } from "../lint/settle-contradiction";
import { createProvider } from "../providers/factory";
import { createNodeFetch } from "../providers/transports/node-fetch";
import type { Settings } from "../settings/schema";
import { NodeVault } from "../vault/node-vault";
import type { WriteContext } from "../write/apply";
import { planIngest } from "../wiki/ingest-note";
import { envSecrets } from "./env-secrets";
import { type CliIO, EXIT, UsageError, parseFlags, BACKEND_FLAG_OPTIONS } from "./io";
import { estimateLine, humanLintReport, humanSettleReport, jsonLintReport, jsonSettleReport } from "./lint-report";
import { recoverVault } from "./recovery";
import { applyFlags} from "./vault-settings";
import { existingVaultRoot, settingsWithWarnings, cliWriteContext } from "./vault-root";

export { LINT_USAGE } from "./usage";
export { jsonLintReport } from "./lint-report";

function parse(argv: readonly string[]) {
  return parseFlags({
    args: [...argv],
    allowPositionals: false,
    strict: true,
    options: {
      vault: { type: "string" },
      fix: { type: "string" },
      "dry-run": { type: "boolean" },
      json: { type: "boolean" },
      resolve: { type: "string" },
      keep: { type: "string" },
      dismiss: { type: "string" },
      "model-checks": { type: "boolean" },
      "max-cost": { type: "string" },
      ...BACKEND_FLAG_OPTIONS,
    },
  });
}

/**
 * The "re-ingest" fix: the note's ingest with the vault's ingest backend, as `synapse ingest` runs
 * it, planned but not written — its pages are written with the other fixes, in the lint run.
 */
function reingestWith(vault: NodeVault, write: WriteContext, settings: Settings, io: CliIO, vaultRoot: string): NonNullable<LintDeps["reingest"]> {
  return async (note, signal) => {
    const transport = createNodeFetch();
    const logger = new MemoryRunLogger(settings.logContent);
    const provider = createProvider(settings.operations.ingest, { settings, secrets: envSecrets(io.env), fetch: transport, streamingFetch: transport, logger, vaultPath: vaultRoot });
    io.stderr(`Re-ingesting ${note}…\n`);
    const { report, plan } = await planIngest({ vault, provider, settings, write }, { notePath: note, log: logger, ...(signal ? { signal } : {}) });
    if (report.error) throw new SynapseError(report.error.kind, `Re-ingesting ${note} failed: ${report.error.message}`);
    return plan;
  };
}

/** The lint backend: "Lint with" in the vault's settings, or --provider / --model / --base-url. */
function lintBackend(values: ReturnType<typeof parse>["values"], loaded: Settings, io: CliIO, vaultRoot: string): InferenceProvider {
  const { id, settings } = applyFlags(
    loaded,
    {
      ...(values.provider !== undefined ? { provider: values.provider } : {}),
      ...(values.model !== undefined ? { model: values.model } : {}),
      ...(values["base-url"] !== undefined ? { baseUrl: values["base-url"] } : {}),
    },
    "lint",
  );
  const transport = createNodeFetch();
  return createProvider(id, { settings, secrets: envSecrets(io.env), fetch: transport, streamingFetch: transport, logger: new MemoryRunLogger(settings.logContent), vaultPath: vaultRoot });
}

function exitFor(kind: string): number {
  return kind === "input" ? EXIT.usage : kind === "vault" ? EXIT.failure : EXIT.provider;
}

async function settle(deps: LintDeps, values: ReturnType<typeof parse>["values"], io: CliIO): Promise<number> {
  try {
    const settled = values.dismiss !== undefined ? await dismissContradiction(deps, values.dismiss) : await resolveContradiction(deps, values.resolve ?? "", values.keep ?? "");
    io.stdout(values.json ? `${jsonSettleReport(settled, null)}\n` : humanSettleReport(settled));
    return EXIT.ok;
  } catch (thrown) {
    const error = toSynapseError(thrown);
    if (values.json) io.stdout(`${jsonSettleReport(null, { kind: error.kind, message: error.message })}\n`);
    else io.stderr(`Error (${error.kind}): ${error.message}\n`);
    return exitFor(error.kind);
  }
}

function checkFlags(values: ReturnType<typeof parse>["values"]): void {
  if (values.fix !== undefined && values.fix !== "safe" && values.fix !== "all") throw new UsageError(`--fix takes safe or all, not "${values.fix}".`);
  const settling = values.resolve !== undefined || values.dismiss !== undefined;
  if (values.resolve !== undefined && values.dismiss !== undefined) throw new UsageError("Give --resolve or --dismiss, not both.");
  if (values.resolve !== undefined && values.keep === undefined) throw new UsageError("--resolve <id> needs --keep 1|2 (or one of its sources): which side is right.");
  if (values.keep !== undefined && values.resolve === undefined) throw new UsageError("--keep goes with --resolve <id>.");
  if (settling && (values.fix !== undefined || values["dry-run"] || values["model-checks"])) throw new UsageError("--resolve and --dismiss settle one contradiction; they do not combine with --fix, --dry-run or --model-checks.");
  const backendFlag = ["provider", "model", "base-url", "max-cost"].find((f) => values[f as "provider"] !== undefined);
  if (backendFlag && !values["model-checks"]) throw new UsageError(`--${backendFlag} ${backendFlag === "max-cost" ? "caps the cost" : "chooses the backend"} of the model checks; add --model-checks.`);
}

/** `--max-cost <usd>`: the lint cost limit for this run, over the setting; 0 for none. */
function maxCost(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const usd = raw.trim() === "" ? Number.NaN : Number(raw);
  if (!Number.isFinite(usd) || usd < 0) throw new UsageError(`--max-cost takes an amount in US dollars, such as 0.50 (0 for no limit), not "${raw}".`);
  return usd;
}

export async function runLintCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values } = parse(argv);
  if (!values.vault) throw new UsageError("--vault <dir> is required.");
  checkFlags(values);
  const costLimit = maxCost(values["max-cost"]);
  const vaultRoot = await existingVaultRoot(values.vault, io);
  const loaded = await settingsWithWarnings(vaultRoot, io);
  const settings = costLimit === undefined ? loaded.settings : { ...loaded.settings, lintCostLimitUsd: costLimit };
  const vault = new NodeVault(vaultRoot);
  const write = cliWriteContext(vaultRoot, io);
  await recoverVault(vault, settings.wikiFolder, write, io, "read");
  const deps: LintDeps = { vault, settings, store: write.store, write, reingest: reingestWith(vault, write, settings, io, vaultRoot) };
  if (values.resolve !== undefined || values.dismiss !== undefined) return settle(deps, values, io);

  const json = values.json === true;
  const modelChecks = values["model-checks"] === true;
  const dryRun = values["dry-run"] === true;
  let provider;
  if (modelChecks) {
    try {
      provider = lintBackend(values, settings, io, vaultRoot);
    } catch (thrown) {
      if (thrown instanceof UsageError) throw thrown;
      const error = toSynapseError(thrown, "config");
      if (json) io.stdout(`${JSON.stringify({ findings: [], counts: {}, fixed: [], usage: { inputTokens: 0, outputTokens: 0, costUsd: null }, error: { kind: error.kind, message: error.message } })}\n`);
      else io.stderr(`Error (${error.kind}): ${error.message}\n`);
      return EXIT.provider;
    }
  }
  // --dry-run with --model-checks: the estimate alone, nothing sent and nothing written.
  let estimate: ModelCheckEstimate | null = null;
  const confirm = (e: ModelCheckEstimate) => {
    estimate = e;
    if (!dryRun) io.stderr(`${estimateLine(e)}\n`);
    return !dryRun;
  };
  const fix = values.fix === "safe" || values.fix === "all" ? values.fix : undefined;
  const report = await runLint(
    { ...deps, ...(provider ? { provider } : {}) },
    { ...(fix && !(dryRun && modelChecks) ? { fix } : {}), ...(dryRun ? { dryRun: true } : {}), ...(modelChecks ? { modelChecks: true, confirmModelChecks: confirm } : {}) },
  );
  if (dryRun && modelChecks && estimate && !report.error) {
    io.stdout(json ? `${JSON.stringify({ estimate })}\n` : `${estimateLine(estimate)}\n`);
    return EXIT.ok;
  }
  io.stdout(json ? `${jsonLintReport(report)}\n` : humanLintReport(report, dryRun));
  if (report.error) return exitFor(report.error.kind);
  return report.findings.length === 0 ? EXIT.ok : 1;
}
