/**
 * A small price table (USD per million tokens) for estimated costs. Estimates only: prices change,
 * so users can override any model in settings; an unknown model shows tokens without a price.
 */
export interface ModelPrice {
  readonly input: number;
  readonly output: number;
}

export const DEFAULT_PRICES: Readonly<Record<string, ModelPrice>> = {
  "claude-opus-4-6": { input: 5, output: 25 },
  "claude-sonnet-4-6": { input: 3, output: 15 },
  "claude-opus-4-5": { input: 5, output: 25 },
  "claude-sonnet-4-5": { input: 3, output: 15 },
  "claude-haiku-4-5": { input: 1, output: 5 },
  "gpt-5": { input: 1.25, output: 10 },
  "gpt-5-mini": { input: 0.25, output: 2 },
  "gpt-4.1": { input: 2, output: 8 },
  "gpt-4.1-mini": { input: 0.4, output: 1.6 },
  "gpt-4o": { input: 2.5, output: 10 },
  "gpt-4o-mini": { input: 0.15, output: 0.6 },
};

/** Finds a price by exact model id, then by the longest known prefix ("claude-sonnet-4-5-20250929"). */
export function priceFor(model: string | null, overrides: Readonly<Record<string, ModelPrice>> = {}): ModelPrice | null {
  if (!model) return null;
  const table = { ...DEFAULT_PRICES, ...overrides };
  const exact = table[model];
  if (exact) return exact;
  const bare = model.includes("/") ? model.slice(model.lastIndexOf("/") + 1) : model;
  let best: string | null = null;
  for (const key of Object.keys(table)) {
    if (bare.startsWith(key) && (best === null || key.length > best.length)) best = key;
  }
  return best === null ? null : (table[best] ?? null);
}

/** Estimated cost in USD, or null when the model has no price. */
export function estimateCost(
  model: string | null,
  inputTokens: number,
  outputTokens: number,
  overrides: Readonly<Record<string, ModelPrice>> = {},
): number | null {
  const price = priceFor(model, overrides);
  if (!price) return null;
  return (inputTokens * price.input + outputTokens * price.output) / 1_000_000;
}

/** What a request answered through a batch API costs against the same request sent interactively: Anthropic and OpenAI both document 50%. */
export const BATCH_PRICE_FACTOR = 0.5;

/**
 * The estimated cost of a run's calls, each at its own rate: a call answered through a batch API
 * (`mode: "batch"`) at the batch discount, every other at the table's price. Null when the model
 * has no price.
 */
export function usageCost(
  entries: readonly { readonly inputTokens: number; readonly outputTokens: number; readonly mode?: "batch" }[],
  model: string | null,
  overrides: Readonly<Record<string, ModelPrice>> = {},
): number | null {
  let input = 0;
  let output = 0;
  let batchInput = 0;
  let batchOutput = 0;
  for (const e of entries) {
    if (e.mode === "batch") {
      batchInput += e.inputTokens;
      batchOutput += e.outputTokens;
    } else {
      input += e.inputTokens;
      output += e.outputTokens;
    }
  }
  const interactive = estimateCost(model, input, output, overrides);
  if (interactive === null || batchInput + batchOutput === 0) return interactive;
  return interactive + BATCH_PRICE_FACTOR * (estimateCost(model, batchInput, batchOutput, overrides) ?? 0);
}

/** A run's cost: what providers reported (agent runs), else an estimate from the price table. */
export function runCost(
  usage: {
    readonly entries: readonly { readonly costUsd?: number; readonly inputTokens: number; readonly outputTokens: number; readonly mode?: "batch" }[];
    totals(): { inputTokens: number; outputTokens: number; calls: number };
  },
  model: string | null,
  overrides: Readonly<Record<string, ModelPrice>> = {},
): number | null {
  const reported = usage.entries.filter((e) => e.costUsd !== undefined);
  if (reported.length > 0) return reported.reduce((sum, e) => sum + (e.costUsd ?? 0), 0);
  const t = usage.totals();
  if (t.calls === 0) return 0;
  return usageCost(usage.entries, model, overrides);
}
