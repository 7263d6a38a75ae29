/**
 * The per-run usage line the CLI and the plugin show: tokens always, an estimated cost only when
 * the model has a price (built-in table or the user's overrides in settings.prices).
 */
import { estimateCost, type ModelPrice } from "../core/pricing";
import type { UsageTotals } from "../core/usage";

const NUMBER = new Intl.NumberFormat("en-US");

/** Dollars with enough precision that small runs do not read as $0.00. */
export function formatUsd(amount: number): string {
  if (amount === 0) return "$0";
  if (amount < 0.01) return `$${amount.toFixed(4)}`;
  if (amount < 1) return `$${amount.toFixed(3)}`;
  return `$${amount.toFixed(2)}`;
}

export function usageCost(usage: Pick<UsageTotals, "inputTokens" | "outputTokens">, model: string | null, prices: Readonly<Record<string, ModelPrice>> = {}): number | null {
  return estimateCost(model, usage.inputTokens, usage.outputTokens, prices);
}

/** "1,234 in / 567 out tokens, ~$0.0123" or "1,234 in / 567 out tokens (no price for model llama3)". */
export function formatUsageSummary(
  usage: Pick<UsageTotals, "inputTokens" | "outputTokens">,
  model: string | null,
  prices: Readonly<Record<string, ModelPrice>> = {},
): string {
  return formatUsageLine(usage, model, model ? usageCost(usage, model, prices) : null);
}

/** The same line for a cost already known (reported by the provider, or estimated earlier). */
export function formatUsageLine(usage: Pick<UsageTotals, "inputTokens" | "outputTokens">, model: string | null, costUsd: number | null): string {
  const tokens = `${NUMBER.format(usage.inputTokens)} in / ${NUMBER.format(usage.outputTokens)} out tokens`;
  if (!model) return tokens;
  return costUsd === null ? `${tokens} (no price for model ${model})` : `${tokens}, ~${formatUsd(costUsd)}`;
}
