/**
 * What ingesting a folder is expected to cost, both ways, before anything is sent: tokens from the
 * notes' length (the providers' chars/4 estimate), priced from the same table the ledger uses, and
 * the batch price at the documented discount. An estimate: the real counts are the providers'.
 */
import { BATCH_PRICE_FACTOR, estimateCost, type ModelPrice } from "../core/pricing";
import { formatUsd } from "../core/cost-text";
import { estimateTokens } from "../providers/call";

/** The instructions, the schema and the wiki's context that go with each request, about. */
const PROMPT_TOKENS = 1_500;
/** An analysis reply, about. */
const ANALYSIS_TOKENS = 600;
/** Pages run longer than the note they come from only by their frontmatter and links. */
const PAGES_OVERHEAD_TOKENS = 800;

export interface IngestEstimate {
  readonly notes: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Null when the model has no price. */
  readonly interactiveUsd: number | null;
  readonly batchUsd: number | null;
}

/** One analysis and one generation per note (retries come on top, for the notes that need them). */
export function estimateIngest(texts: readonly string[], model: string | null, prices: Readonly<Record<string, ModelPrice>>): IngestEstimate {
  let inputTokens = 0;
  let outputTokens = 0;
  for (const text of texts) {
    const note = estimateTokens(text);
    inputTokens += 2 * (note + PROMPT_TOKENS) + ANALYSIS_TOKENS;
    outputTokens += ANALYSIS_TOKENS + note + PAGES_OVERHEAD_TOKENS;
  }
  const interactiveUsd = estimateCost(model, inputTokens, outputTokens, prices);
  return { notes: texts.length, inputTokens, outputTokens, interactiveUsd, batchUsd: interactiveUsd === null ? null : interactiveUsd * BATCH_PRICE_FACTOR };
}

const count = (n: number) => n.toLocaleString("en-US");

export function estimateText(e: IngestEstimate, model: string): string {
  const tokens = `about ${count(e.inputTokens)} tokens in and ${count(e.outputTokens)} out`;
  if (e.interactiveUsd === null || e.batchUsd === null) return `Estimate for ${e.notes} note${e.notes === 1 ? "" : "s"} with ${model}: ${tokens}; no price is known for the model.`;
  return `Estimate for ${e.notes} note${e.notes === 1 ? "" : "s"} with ${model}: ${tokens} — interactively about ${formatUsd(e.interactiveUsd)}, as a batch about ${formatUsd(e.batchUsd)} (half the price, results within hours).`;
}
