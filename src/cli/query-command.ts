/**
 * `synapse query "<question>" --vault <dir> …`: ask the wiki from a terminal. The answer streams
 * to stdout as it arrives; `--json` prints one object instead. Exit codes as for ingest: 0 answered
 * (including an honest "not in your wiki"), 2 usage or bad question, 4 provider failure, 1 when
 * `--save` could not write, 130 interrupted. An answer with no verified citation still exits 0: the
 * exit-code table has no code for it and the command did what was asked; it carries a warning on
 * stderr and in `--json` instead, each unverified citation with its reason.
 */
import { plural } from "../core/plural";
import { toSynapseError } from "../core/errors";
import { MemoryRunLogger } from "../core/log";
import { askWiki, type AskReport, type QueryScope } from "../query/ask";
import { createProvider } from "../providers/factory";
import { formatUsageLine } from "../providers/usage-summary";
import type { Settings } from "../settings/schema";
import { NodeVault } from "../vault/node-vault";
import { terminalSafe } from "./terminal-text";
import { applyPlan } from "../write/apply";
import { effectiveWikiFolder } from "../wiki/page-paths";
import { planAnswerPage } from "../query/save";
import { openVaultIndex } from "./open-index";
import { envSecrets } from "./env-secrets";
import { type CliIO, EXIT, UsageError, parseFlags, BACKEND_FLAG_OPTIONS } from "./io";
import { applyFlags} from "./vault-settings";
import { existingVaultRoot, settingsWithWarnings, cliWriteContext } from "./vault-root";

export { QUERY_USAGE } from "./usage";

export interface QueryCommandOptions {
  readonly signal?: AbortSignal;
}

/** Files the answer as a synthesis page through the write path; returns its path. */
async function saveAnswer(vault: NodeVault, vaultRoot: string, settings: Settings, report: AskReport, io: CliIO): Promise<string> {
  const write = cliWriteContext(vaultRoot, io);
  const wikiFolder = effectiveWikiFolder(settings.wikiFolder);
  const change = await planAnswerPage(vault, wikiFolder, report, [], new Date().toISOString().slice(0, 10));
  await applyPlan(vault, [change], { ...write, operation: "query", label: report.question, wikiFolder });
  return change.path;
}

function parse(argv: readonly string[]) {
  return parseFlags({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      vault: { type: "string" },
      ...BACKEND_FLAG_OPTIONS,
      "bridge-url": { type: "string" },
      scope: { type: "string" },
      general: { type: "boolean" },
      save: { type: "boolean" },
      json: { type: "boolean" },
    },
  });
}

/** "wiki", "notes", "all", or a folder of the vault, which must exist. */
async function parseScope(value: string | undefined, vault: NodeVault): Promise<{ scope?: QueryScope; folders?: string[] }> {
  if (value === undefined) return {};
  if (value === "wiki" || value === "notes" || value === "all") return { scope: value };
  const folder = value.replace(/\\/g, "/").replace(/^\/+|\/+$/g, "");
  if (!folder || (await vault.list(folder)).length === 0) {
    throw new UsageError(`--scope "${value}" is neither wiki, notes nor all, and names no folder with notes in the vault.`);
  }
  return { folders: [folder] };
}

export function jsonQueryReport(report: AskReport, saved: string | null): string {
  return JSON.stringify({
    answer: report.answer,
    citations: report.citations.map((c) => ({ page: c.page, path: c.path, verified: c.verified, problem: c.problem, reason: c.verified ? null : c.reason })),
    warning: report.unverifiedWarning,
    saved,
    usage: { inputTokens: report.usage.inputTokens, outputTokens: report.usage.outputTokens, costUsd: report.usage.costUsd },
    provider: { name: report.provider.name, mode: report.provider.mode, isLocal: report.provider.isLocal },
    error: report.error ? { kind: report.error.kind, message: report.error.message } : null,
  });
}

/** The citations as the human output lists them on stderr, then the warning of an answer with none verified. */
export function citationLines(report: AskReport): string[] {
  const lines = report.citations.map((c) => `  ${c.verified ? "✓" : "✗ unverified:"} ${c.page}${c.path ? ` (${c.path})` : ""}${c.verified ? "" : ` — ${c.reason}`}`);
  if (report.unverifiedWarning) lines.push(`Warning: ${report.unverifiedWarning}`);
  return lines;
}

function exitCode(report: AskReport): number {
  const kind = report.error?.kind;
  if (!kind) return EXIT.ok;
  if (kind === "cancelled") return EXIT.cancelled;
  if (kind === "input") return EXIT.usage;
  return EXIT.provider;
}

export async function runQueryCommand(argv: readonly string[], io: CliIO, options: QueryCommandOptions): Promise<number> {
  const { values, positionals } = parse(argv);
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? "Ask a question, in quotes." : "Put the question in quotes: it must be one argument.");
  if (!values.vault) throw new UsageError("--vault <dir> is required.");
  const vaultRoot = await existingVaultRoot(values.vault, io);
  const vault = new NodeVault(vaultRoot);
  const scope = await parseScope(values.scope, vault);
  const loaded = await settingsWithWarnings(vaultRoot, io);
  const { id, settings } = applyFlags(
    loaded.settings,
    {
      ...(values.provider !== undefined ? { provider: values.provider } : {}),
      ...(values.model !== undefined ? { model: values.model } : {}),
      ...(values["base-url"] !== undefined ? { baseUrl: values["base-url"] } : {}),
      ...(values["bridge-url"] !== undefined ? { bridgeUrl: values["bridge-url"] } : {}),
    },
    "query",
  );
  const json = values.json === true;
  const logger = new MemoryRunLogger(settings.logContent);
  let provider;
  try {
    provider = createProvider(id, { settings, secrets: envSecrets(io.env), fetch: globalThis.fetch, streamingFetch: globalThis.fetch, logger, vaultPath: vaultRoot });
  } catch (error) {
    const failure = toSynapseError(error, "config");
    if (json) io.stdout(`${JSON.stringify({ answer: "", citations: [], warning: null, saved: null, usage: { inputTokens: 0, outputTokens: 0, costUsd: null }, provider: { name: id, mode: null, isLocal: id === "offline" }, error: { kind: failure.kind, message: failure.message } })}\n`);
    else io.stderr(`Error (${failure.kind}): ${failure.message}\n`);
    return EXIT.provider;
  }
  const { index: retriever } = await openVaultIndex(values.vault, io, options.signal ? { signal: options.signal } : {});
  const report = await askWiki(
    { vault, provider, retriever, settings },
    {
      question: positionals[0] ?? "",
      ...scope,
      ...(values.general ? { general: true } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      log: logger,
      ...(json ? {} : { onText: (text: string) => io.stdout(terminalSafe(text)) }),
    },
  );
  let saved: string | null = null;
  let saveFailed = false;
  if (values.save && !report.error && report.grounding !== "none") {
    try {
      saved = await saveAnswer(vault, vaultRoot, settings, report, io);
    } catch (error) {
      saveFailed = true;
      io.stderr(`Could not save the answer: ${toSynapseError(error).message}\n`);
    }
  }
  if (json) {
    io.stdout(`${jsonQueryReport(report, saved)}\n`);
  } else {
    if (report.error) io.stderr(`Error (${report.error.kind}): ${report.error.message}\n`);
    else io.stdout("\n");
    for (const line of citationLines(report)) io.stderr(`${line}\n`);
    if (report.leftOut > 0) io.stderr(`  ${plural(report.leftOut, "relevant passage")} left out: no room for them in the model's context window or the "Token budget" setting.\n`);
    if (saved) io.stderr(`Saved as ${saved}\n`);
    const usage = report.usage.inputTokens + report.usage.outputTokens > 0 ? formatUsageLine(report.usage, report.provider, report.usage.costUsd) : "no tokens";
    io.stderr(`Provider: ${report.provider.name}${report.provider.model ? ` (${report.provider.model})` : ""}; ${usage}.\n`);
  }
  if (saveFailed) return EXIT.failure;
  return exitCode(report);
}
