/**
 * The model checks' cost limit ("Lint cost limit (USD)", `--max-cost`): what one pair is expected
 * to cost at the model's declared price, and whether a backend can be held to a limit at all.
 * A limit needs a price. A model run on this machine (`isLocal` and `mode: local`, e.g. Ollama's
 * own models) costs nothing, so without a price it is free. An API server on this machine (an
 * OpenAI-compatible one on loopback) may be LM Studio, or a LiteLLM or OpenRouter proxy passing the
 * requests on to a paid model: without a price it is counted as free too, since nothing else can be
 * counted, but `treatedAsFree` makes the estimate say so. A remote model without a price cannot be
 * held to a limit, and the checks refuse it rather than spend an unknown amount.
 */
import { formatUsd } from "../core/cost-text";
import { SynapseError } from "../core/errors";
import type { ProviderCapabilities } from "../core/capabilities";
import { priceFor, type ModelPrice } from "../core/pricing";
import type { Settings } from "../settings/schema";

export interface CostLimit {
  /** USD; 0 for no limit. */
  readonly limitUsd: number;
  /**
   * A limit is set, no price is known, and the backend is an API server on this machine that may
   * pass the requests on to a paid model: they are counted as costing nothing.
   */
  readonly treatedAsFree: boolean;
  /** Expected cost of one request of this many input tokens and this many output tokens. */
  cost(inputTokens: number, outputTokens: number): number;
}

/** The limit for this backend; throws (before any call) when a limit is set but cannot be kept. */
export function costLimitFor(caps: ProviderCapabilities, settings: Settings): CostLimit {
  const limitUsd = settings.lintCostLimitUsd;
  const price: ModelPrice | null = priceFor(caps.model, settings.prices);
  if (limitUsd > 0 && !price && !caps.isLocal) {
    throw new SynapseError(
      "config",
      `No price is known for the model ${caps.model ?? "(none)"}, so the model checks cannot keep to the "Lint cost limit (USD)" of ${formatUsd(limitUsd)}; add the model's price under "prices" in the settings file, or set the limit to 0 (--max-cost 0) for no limit.`,
      {
        pluginMessage: `No price is known for the model ${caps.model ?? "(none)"}, so the model checks cannot keep to the "Lint cost limit (USD)" of ${formatUsd(limitUsd)}; set that limit to 0 in the settings for no limit, or add the model's price under "prices" in data.json.`,
      },
    );
  }
  return {
    limitUsd,
    treatedAsFree: limitUsd > 0 && !price && caps.isLocal && caps.mode !== "local",
    cost: (inputTokens, outputTokens) => (price ? (inputTokens * price.input + outputTokens * price.output) / 1_000_000 : 0),
  };
}
