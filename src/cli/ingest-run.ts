/**
 * One note's ingest as the CLI runs it: the core's ingestNote with the vault's state (skip
 * unchanged notes), Ctrl-C, progress, and --diff, which shows each change's unified diff before
 * it is written (or, with --dry-run, instead of writing it).
 */
import type { InferenceProvider } from "../core/provider";
import type { ProgressEvent } from "../core/run-context";
import type { Settings } from "../settings/schema";
import type { VaultPort } from "../vault/vault-port";
import type { WriteContext } from "../write/apply";
import { ingestNote } from "../wiki/ingest-note";
import type { IngestReport, WikiCatalog } from "../wiki/ingest-types";
import type { Retriever } from "../retrieval";
import type { ReviewPlan } from "../wiki/review";
import type { CliIO } from "./io";
import type { MemoryRunLogger } from "../core/log";

export interface CliIngestContext {
  readonly vault: VaultPort;
  /** The vault's journal, lock and history; its store also holds the source registry. */
  readonly write: WriteContext;
  readonly provider: InferenceProvider;
  readonly settings: Settings;
  readonly logger: MemoryRunLogger;
  readonly io: CliIO;
  readonly dryRun: boolean;
  readonly force: boolean;
  /** Show unified diffs: printed on stdout, or (with --json) kept for the report. */
  readonly diff: boolean;
  readonly json: boolean;
  readonly signal?: AbortSignal;
  readonly writing?: (inProgress: boolean) => void;
  /** The vault's search index: related pages by content, and no listing of the vault per ingest. */
  readonly index?: { readonly retriever: Retriever; readonly catalog: WikiCatalog };
}

export interface CliIngestResult {
  readonly report: IngestReport;
  /** Page path → unified diff, when --diff was given. */
  readonly diffs?: ReadonlyMap<string, string>;
}

/** The diffs of a plan as printed by --diff: one block per changed page. */
export function formatDiffs(plan: ReviewPlan): string {
  return plan.changes.map((c) => (c.diff.endsWith("\n") ? c.diff : `${c.diff}\n`)).join("");
}

export async function runCliIngest(
  notePath: string,
  ctx: CliIngestContext,
  onProgress?: (event: ProgressEvent) => void,
): Promise<CliIngestResult> {
  const diffs = ctx.diff ? new Map<string, string>() : undefined;
  const report = await ingestNote(
    {
      vault: ctx.vault,
      provider: ctx.provider,
      settings: ctx.settings,
      write: ctx.write,
      ...(ctx.index ? { retriever: ctx.index.retriever, catalog: ctx.index.catalog } : {}),
    },
    {
      notePath,
      dryRun: ctx.dryRun,
      force: ctx.force,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      log: ctx.logger,
      ...(diffs
        ? {
            // The CLI does not ask: it shows every change (before writing it) and applies them all.
            review: (plan: ReviewPlan) => {
              for (const change of plan.changes) diffs.set(change.path, change.diff);
              if (!ctx.json && plan.changes.length > 0) ctx.io.stdout(formatDiffs(plan));
              return Promise.resolve(plan.changes.map((c) => c.path));
            },
          }
        : {}),
      progress: (event) => {
        if (event.type === "phase" && event.phase === "writing") ctx.writing?.(true);
        onProgress?.(event);
      },
    },
  );
  ctx.writing?.(false);
  return diffs ? { report, diffs } : { report };
}
