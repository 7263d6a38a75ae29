/**
 * `synapse batch status|collect|cancel [<id>] --vault <dir>`: the batch ingests recorded in the
 * vault's state folder, carried on by a process that knows nothing but that record. Exit codes:
 * 0 done (or still waiting), 1 another Synapse holds the batch (or the vault could not be written),
 * 2 usage or no such batch, 4 the batch API failed.
 */
import type { RemoteStatus } from "../batch/batch-api";
import { cancelBatch, collectBatch } from "../batch/batch-ingest";
import { BatchStore } from "../batch/batch-store";
import { isSettled, openRound, type BatchRecord } from "../batch/record";
import { countsText, summarise } from "../batch/summary";
import { toSynapseError } from "../core/errors";
import { NodeVault } from "../vault/node-vault";
import { openBatchSession } from "./batch-session";
import { jsonStep, noteLine, stepText } from "./batch-report";
import { EXIT, UsageError, parseFlags, type CliIO } from "./io";
import { recoverVault } from "./recovery";
import { applyFlags} from "./vault-settings";
import { existingVaultRoot, settingsWithWarnings, cliWriteContext } from "./vault-root";

export { BATCH_USAGE } from "./usage";

const ACTIONS = ["status", "collect", "cancel"] as const;
type Action = (typeof ACTIONS)[number];

export interface BatchCommandOptions {
  readonly signal?: AbortSignal;
  readonly writing?: (inProgress: boolean) => void;
  /** The clock (tests). */
  readonly now?: () => number;
}

function parse(argv: readonly string[]) {
  const { values, positionals } = parseFlags({
    args: [...argv],
    strict: true,
    allowPositionals: true,
    options: { vault: { type: "string" }, json: { type: "boolean" }, diff: { type: "boolean" }, "retry-failed": { type: "boolean" }, "base-url": { type: "string" } },
  });
  if (!values.vault) throw new UsageError("--vault <dir> is required.");
  const [given, id, ...extra] = positionals;
  const action = ACTIONS.find((a) => a === given);
  if (!action) throw new UsageError(given === undefined ? "Say status, collect or cancel." : `"${given}" is not one of status, collect or cancel.`);
  if (extra.length > 0) throw new UsageError(`${action} takes at most one batch id.`);
  if (action === "cancel" && id === undefined) throw new UsageError("cancel takes the id of the batch to cancel (synapse batch status lists them).");
  if (values["retry-failed"] && action !== "collect") throw new UsageError("--retry-failed goes with collect.");
  return { vault: values.vault, action, id: id ?? null, json: values.json === true, diff: values.diff === true, retryFailed: values["retry-failed"] === true, baseUrl: values["base-url"] ?? null };
}

export async function runBatchCommand(argv: readonly string[], io: CliIO, options: BatchCommandOptions = {}): Promise<number> {
  const args = parse(argv);
  const root = await existingVaultRoot(args.vault, io);
  const loaded = await settingsWithWarnings(root, io);
  const vault = new NodeVault(root);
  const write = cliWriteContext(root, io);
  await recoverVault(vault, loaded.settings.wikiFolder, write, io, args.action === "status" ? "read" : "write");
  const store = new BatchStore(write.store);
  const listing = await store.list();
  for (const key of listing.unreadable) io.stderr(`Warning: ${key} is not a batch record this version can read; it was left as it is.\n`);
  const chosen = args.id ? [await store.get(args.id)] : listing.records.filter((r) => args.action === "status" || !isSettled(r) || args.retryFailed);
  const out: Record<string, unknown>[] = [];
  let code: number = EXIT.ok;

  if (chosen.length === 0) {
    if (args.json) io.stdout(`${JSON.stringify({ batches: [] })}\n`);
    else io.stdout(args.action === "status" ? "No batch ingest is recorded in this vault.\n" : "No batch ingest is waiting.\n");
    return EXIT.ok;
  }
  for (const record of chosen) {
    try {
      const session = await openBatchSession({
        vaultRoot: root,
        vault,
        write,
        // The record's provider, model and choices, whatever the vault's settings say now.
        settings: applyFlags(loaded.settings, {
          provider: record.provider,
          model: record.model,
          ...((args.baseUrl ?? record.flags.baseUrl) ? { baseUrl: args.baseUrl ?? record.flags.baseUrl ?? "" } : {}),
          ...(record.flags.maxIter ? { maxIter: record.flags.maxIter } : {}),
          ...(record.flags.lang ? { lang: record.flags.lang } : {}),
        }).settings,
        provider: record.provider,
        io,
        json: args.json,
        diff: args.diff,
        notePaths: record.notes.map((n) => n.path),
        ingests: args.action === "collect",
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.writing ? { writing: options.writing } : {}),
        ...(options.now ? { now: options.now } : {}),
        onNote: (note) => {
          if (!args.json) io.stderr(noteLine(note));
        },
      });
      const step = await runAction(args.action, session.deps, record, args.retryFailed);
      await session.close();
      out.push(jsonStep(step.record, step.submitted, step.waiting));
      if (!args.json) io.stdout(args.action === "status" ? statusText(step.record, step.waiting) : stepText(step.record, step.submitted, step.waiting));
    } catch (error) {
      const failure = toSynapseError(error, "unavailable");
      out.push({ id: record.id, error: { kind: failure.kind, message: failure.message } });
      if (!args.json) io.stderr(`Error (${failure.kind}) in batch ${record.id}: ${failure.message}\n`);
      code = failure.kind === "input" ? EXIT.usage : failure.kind === "vault" ? EXIT.failure : EXIT.provider;
    }
  }
  if (args.json) io.stdout(`${JSON.stringify({ batches: out })}\n`);
  return code;
}

async function runAction(
  action: Action,
  deps: Parameters<typeof collectBatch>[0],
  record: BatchRecord,
  retryFailed: boolean,
): Promise<{ record: BatchRecord; submitted: number; waiting: RemoteStatus | null }> {
  if (action === "collect") return collectBatch(deps, record.id, { retryFailed });
  if (action === "cancel") return { record: await cancelBatch(deps, record.id), submitted: 0, waiting: null };
  const round = openRound(record);
  return { record, submitted: 0, waiting: round?.remoteId ? await deps.api.status(round.remoteId) : null };
}

function statusText(record: BatchRecord, remote: RemoteStatus | null): string {
  const summary = summarise(record);
  const round = summary.open
    ? `round ${summary.open.round} of requests ${summary.open.canceled ? "cancelled" : "at the provider"}: ${remote ? `${remote.status.replace(/_/g, " ")}${remote.total > 0 ? `, ${remote.done} of ${remote.total} done` : ""}` : "not sent yet"}`
    : isSettled(record)
      ? "finished"
      : "results taken in; collect sends the next round";
  const attention = summary.attention.map((a) => noteLine({ path: a.path, state: a.state, message: a.message, hash: "", calls: [] })).join("");
  return `${record.id}  ${record.provider} (${record.model})  ${record.folder || "the vault"}  ${summary.rounds} round${summary.rounds === 1 ? "" : "s"}, ${round}\n  notes: ${countsText(summary)}\n${attention}`;
}
