/**
 * A run's cost in users' words, the one wording every surface uses (the result window, log.md, the
 * CLI's reports, lint's estimate). A backend on this computer (Offline, Ollama, a local server) is
 * free: "$0.0000" would read as a price that happened to round to nothing, and "no price for model
 * llama3.2" as a price Synapse failed to find. An unknown price says so instead of guessing.
 */

/** What decides the wording besides the amount: where the backend runs, and the model it priced. */
export interface CostBackend {
  /** The backend runs on this computer: nothing is billed unless the user gave its model a price. */
  readonly isLocal: boolean;
  readonly model: string | null;
}

/** What a free run says, wherever it is shown. */
export const FREE_RUN = "free (runs on this computer)";

/**
 * Dollars with enough precision that small runs do not read as $0.00: below a dollar up to four
 * decimals, trailing zeros dropped down to cents ("$0.0041", "$0.123", a limit typed as 0.5 as
 * "$0.50", never "$0.5000"); "$12.50" from a dollar up.
 */
export function formatUsd(amount: number): string {
  if (amount === 0) return "$0";
  if (amount < 1) return `$${amount.toFixed(4).replace(/(\.\d\d\d*?)0+$/, "$1")}`;
  return `$${amount.toFixed(2)}`;
}

/**
 * "~$0.0123", "free (runs on this computer)", "cost unknown (no price for model llama3)". A local
 * backend with a price the user set (a server passing requests on to a paid model) shows that price.
 */
export function costText(costUsd: number | null, backend: CostBackend): string {
  if (backend.isLocal && (costUsd === null || costUsd === 0)) return FREE_RUN;
  if (costUsd === null) return backend.model ? `cost unknown (no price for model ${backend.model})` : "cost unknown";
  return costUsd === 0 ? "$0" : `~${formatUsd(costUsd)}`;
}
