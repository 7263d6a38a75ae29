/**
 * The per-run usage line the CLI and the plugin show: tokens always, then the cost as `costText`
 * words it (an estimate when the model has a price, free on this computer, or unknown).
 */
import { costText, type CostBackend } from "../core/cost-text";
import { estimateCost, type ModelPrice } from "../core/pricing";
import type { CacheTokens, UsageTotals } from "../core/usage";

/** Tokens as reports carry them: the cached parts of the input are optional (absent: none, as in reports written before caching). */
export type ShownUsage = Pick<UsageTotals, "inputTokens" | "outputTokens"> & Partial<CacheTokens>;

const NUMBER = new Intl.NumberFormat("en-US");

export { formatUsd } from "../core/cost-text";

export function usageCost(usage: ShownUsage, model: string | null, prices: Readonly<Record<string, ModelPrice>> = {}): number | null {
  return estimateCost(model, usage.inputTokens, usage.outputTokens, prices, usage);
}

/** " (1,024 read from the prompt cache, 2,048 written to it)", or "" when the cache was not used. */
export function cacheNote(usage: Partial<CacheTokens>): string {
  const read = usage.cacheReadTokens ?? 0;
  const written = usage.cacheWriteTokens ?? 0;
  if (read + written === 0) return "";
  const parts = [read > 0 ? `${NUMBER.format(read)} read from the prompt cache` : "", written > 0 ? `${NUMBER.format(written)} written to ${read > 0 ? "it" : "the prompt cache"}` : ""];
  return ` (${parts.filter(Boolean).join(", ")})`;
}

/** "1,234 in / 567 out tokens, ~$0.0123" or "1,234 in / 567 out tokens, cost unknown (no price for model llama3)", for a remote model. */
export function formatUsageSummary(
  usage: ShownUsage,
  model: string | null,
  prices: Readonly<Record<string, ModelPrice>> = {},
): string {
  return formatUsageLine(usage, { isLocal: false, model }, model ? usageCost(usage, model, prices) : null);
}

/** The same line for a cost already known (reported by the provider, or estimated earlier). */
export function formatUsageLine(usage: ShownUsage, backend: CostBackend, costUsd: number | null): string {
  // The cached input is part of the "in" count, priced at its own rate.
  const tokens = `${NUMBER.format(usage.inputTokens)} in${cacheNote(usage)} / ${NUMBER.format(usage.outputTokens)} out tokens`;
  // A remote backend without a model (none configured) has nothing to price or to call unknown.
  if (!backend.model && !backend.isLocal && costUsd === null) return tokens;
  return `${tokens}, ${costText(costUsd, backend)}`;
}
