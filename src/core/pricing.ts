/**
 * A small price table (USD per million tokens) for estimated costs. Estimates only: prices change,
 * so users can override any model in settings; an unknown model shows tokens without a price.
 */
import type { CacheTokens } from "./usage";

export interface ModelPrice {
  readonly input: number;
  readonly output: number;
  /** Input read from the prompt cache; absent: billed as ordinary input (no discount assumed). */
  readonly cacheRead?: number;
  /** Input written to the prompt cache; absent: billed as ordinary input. */
  readonly cacheWrite?: number;
}

/**
 * Anthropic bills a 5-minute cache write at 1.25× the model's input price and a cache read at
 * 0.1× (docs.claude.com, "Prompt caching" → pricing); Synapse only writes 5-minute entries.
 */
function claude(input: number, output: number): ModelPrice {
  return { input, output, cacheRead: input * 0.1, cacheWrite: input * 1.25 };
}

/**
 * OpenAI caches prompt prefixes by itself, bills no write premium, and lists a "cached input"
 * price per model (developers.openai.com/api/docs/pricing): a tenth of the input price for GPT-5,
 * a quarter for GPT-4.1, half for GPT-4o.
 */
function openai(input: number, cachedInput: number, output: number): ModelPrice {
  return { input, output, cacheRead: cachedInput, cacheWrite: input };
}

export const DEFAULT_PRICES: Readonly<Record<string, ModelPrice>> = {
  "claude-opus-4-6": claude(5, 25),
  "claude-sonnet-4-6": claude(3, 15),
  "claude-opus-4-5": claude(5, 25),
  "claude-sonnet-4-5": claude(3, 15),
  "claude-haiku-4-5": claude(1, 5),
  "gpt-5": openai(1.25, 0.125, 10),
  "gpt-5-mini": openai(0.25, 0.025, 2),
  "gpt-4.1": openai(2, 0.5, 8),
  "gpt-4.1-mini": openai(0.4, 0.1, 1.6),
  "gpt-4o": openai(2.5, 1.25, 10),
  "gpt-4o-mini": openai(0.15, 0.075, 0.6),
};

/**
 * What a call (or a run) spent, as it is priced: the input count includes the cached parts.
 * One object, so another way of billing (a batch, at its own rate) adds a field, not a parameter.
 */
export interface PricedUsage extends Partial<CacheTokens> {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** USD for `usage` at `price`: uncached input at the input price, cache reads and writes at theirs. */
export function costAt(price: ModelPrice, usage: PricedUsage): number {
  const read = Math.min(usage.cacheReadTokens ?? 0, usage.inputTokens);
  const written = Math.min(usage.cacheWriteTokens ?? 0, usage.inputTokens - read);
  const plain = usage.inputTokens - read - written;
  return (plain * price.input + read * (price.cacheRead ?? price.input) + written * (price.cacheWrite ?? price.input) + usage.outputTokens * price.output) / 1_000_000;
}

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
  cache: Partial<CacheTokens> = {},
): number | null {
  const price = priceFor(model, overrides);
  if (!price) return null;
  return costAt(price, { inputTokens, outputTokens, ...cache });
}

/** What a request answered through a batch API costs against the same request sent interactively: Anthropic and OpenAI both document 50%. */
export const BATCH_PRICE_FACTOR = 0.5;

/**
 * The estimated cost of a run's calls, each at its own rate: a call answered through a batch API
 * (`mode: "batch"`) at the batch discount, every other at the table's price. Null when the model
 * has no price.
 */
export function usageCost(
  entries: readonly (PricedUsage & { readonly mode?: "batch" })[],
  model: string | null,
  overrides: Readonly<Record<string, ModelPrice>> = {},
): number | null {
  const price = priceFor(model, overrides);
  if (!price) return null;
  // Each call at its own rate: cache reads and writes as costAt prices them, a batch call at the discount on top.
  return entries.reduce((sum, e) => sum + (e.mode === "batch" ? BATCH_PRICE_FACTOR : 1) * costAt(price, e), 0);
}

/** A run's cost: what providers reported (agent runs), else an estimate from the price table. */
export function runCost(
  usage: {
    readonly entries: readonly (PricedUsage & { readonly costUsd?: number; readonly mode?: "batch" })[];
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
