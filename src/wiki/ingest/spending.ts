/** What an ingest spent, as its report and its log.md entry tell it. */
import { costText } from "../../core/cost-text";
import { usageCost } from "../../core/pricing";
import type { UsageAccumulator } from "../../core/usage";
import type { IngestDeps } from "../ingest-types";
import type { IngestRun } from "./run";

/** Cost the providers reported (agent runs), else an estimate from the price table. */
function runCost(usage: UsageAccumulator, model: string | null, prices: IngestDeps["settings"]["prices"]): number | null {
  const reported = usage.entries.filter((e) => e.costUsd !== undefined);
  if (reported.length > 0) return reported.reduce((sum, e) => sum + (e.costUsd ?? 0), 0);
  // No model, no cost. A model without a price has no cost to tell, even for a run that failed
  // before spending anything: "$0" would read as "priced, and free".
  if (model === null) return 0;
  return usageCost(usage.entries, model, prices);
}

/** The cost of this ingest so far. */
export function ingestCost(ingest: IngestRun): number | null {
  return runCost(ingest.run.usage, ingest.caps.model, ingest.deps.settings.prices);
}

/** The prompt cache's reads and writes, only when there were some (reports before caching had neither). */
export function cacheParts(usage: UsageAccumulator): { cacheReadTokens?: number; cacheWriteTokens?: number } {
  const { cacheReadTokens, cacheWriteTokens } = usage.cache();
  return { ...(cacheReadTokens > 0 ? { cacheReadTokens } : {}), ...(cacheWriteTokens > 0 ? { cacheWriteTokens } : {}) };
}

/** The log.md lines after the pages: what was ingested, with what, at what cost. */
export function logDetails(ingest: IngestRun, notePath: string, sourceTitle: string): string[] {
  const { caps, run } = ingest;
  const provider = caps.model ? `${caps.name} (${caps.model})` : caps.name;
  const cost = ingestCost(ingest);
  const t = run.usage.totals();
  return [
    `source: [[${notePath.replace(/\.md$/i, "")}|${sourceTitle.replace(/[[\]|]/g, " ")}]]`,
    `provider: ${provider}`,
    `tokens: ${t.inputTokens.toLocaleString("en-US")} in, ${t.outputTokens.toLocaleString("en-US")} out`,
    // log.md is a ledger a reader may add up: a price stays exact to the hundredth of a cent, not "~".
    `cost: ${cost !== null && cost > 0 ? `$${cost.toFixed(4)}` : costText(cost, caps)}`,
  ];
}
