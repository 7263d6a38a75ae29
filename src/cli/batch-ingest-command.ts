/**
 * `synapse ingest <folder|note> --batch`: the estimate both ways first, then the batch ingest's
 * first round (every note's analysis) sent to the provider's batch API. With `--dry-run`, the
 * estimate alone. Only the API backends have a batch API.
 */
import { startBatch } from "../batch/batch-ingest";
import { estimateIngest, estimateText } from "../batch/estimate";
import { BatchProviderSchema } from "../batch/record";
import { toSynapseError } from "../core/errors";
import type { ProviderId, Settings } from "../settings/schema";
import type { NodeVault } from "../vault/node-vault";
import type { WriteContext } from "../write/apply";
import { selectIngestible } from "../wiki/folder-notes";
import { openBatchSession } from "./batch-session";
import { jsonStep, noteLine, stepText } from "./batch-report";
import { EXIT, type CliIO } from "./io";

export interface BatchIngestRequest {
  readonly vaultRoot: string;
  readonly vault: NodeVault;
  readonly write: WriteContext;
  readonly id: ProviderId;
  readonly settings: Settings;
  /** The folder (or the one note) named on the command line. */
  readonly target: string;
  readonly folder: boolean;
  readonly flags: { readonly baseUrl: string | null; readonly maxIter: string | null; readonly lang: string | null };
  readonly dryRun: boolean;
  readonly diff: boolean;
  readonly json: boolean;
  readonly io: CliIO;
  readonly signal?: AbortSignal;
  readonly writing?: (inProgress: boolean) => void;
}

export async function runBatchIngest(request: BatchIngestRequest): Promise<number> {
  const { io, settings, json } = request;
  const provider = BatchProviderSchema.safeParse(request.id);
  if (!provider.success) {
    const message = `--batch goes through the Anthropic Message Batches API or the OpenAI Batch API; the ${request.id} backend has no batch API. Pick --provider anthropic or --provider openai, or ingest without --batch.`;
    if (json) io.stdout(`${JSON.stringify({ error: { kind: "capability", message } })}\n`);
    else io.stderr(`Error (capability): ${message}\n`);
    return EXIT.usage;
  }
  const notePaths = request.folder ? selectIngestible(await request.vault.list(request.target), settings.wikiFolder, settings.excludedFolders).notes : [request.target];
  const model = settings.profiles[provider.data].model.trim();
  const texts = await Promise.all(notePaths.map((p) => request.vault.read(p).catch(() => "")));
  const estimate = estimateIngest(texts, model || null, settings.prices);
  io.stderr(`${estimateText(estimate, model || "no model")}\n`);
  if (request.dryRun) {
    if (json) io.stdout(`${JSON.stringify({ estimate })}\n`);
    return EXIT.ok;
  }
  try {
    const session = await openBatchSession({
      vaultRoot: request.vaultRoot,
      vault: request.vault,
      write: request.write,
      settings,
      provider: provider.data,
      io,
      json,
      diff: request.diff,
      notePaths,
      ...(request.signal ? { signal: request.signal } : {}),
      ...(request.writing ? { writing: request.writing } : {}),
      onNote: (note) => {
        if (!json) io.stderr(noteLine(note));
      },
    });
    const outcome = await startBatch(session.deps, { folder: request.folder ? request.target : "", notePaths, provider: provider.data, model, flags: request.flags });
    await session.close();
    if (json) io.stdout(`${JSON.stringify({ estimate, ...jsonStep(outcome.record, outcome.submitted, outcome.waiting) })}\n`);
    else io.stdout(stepText(outcome.record, outcome.submitted, outcome.waiting));
    return EXIT.ok;
  } catch (error) {
    const failure = toSynapseError(error, "config");
    if (json) io.stdout(`${JSON.stringify({ error: { kind: failure.kind, message: failure.message } })}\n`);
    else io.stderr(`Error (${failure.kind}): ${failure.message}\n`);
    return EXIT.provider;
  }
}
