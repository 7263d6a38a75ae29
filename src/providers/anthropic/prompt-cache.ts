/**
 * Anthropic's prompt caching: a `cache_control: {type: "ephemeral"}` mark on a block caches the
 * whole prompt up to it (tools, then system, then messages, in that order) for five minutes from
 * its last use. A later request with the same prefix reads it at a tenth of the input price; the
 * first one writes it at 1.25× (pricing.ts). Prompts put what repeats first (prompts.ts), so two
 * marks cover it: the end of the system prompt (tools and schema included) and the end of the part
 * of the user message that repeats across notes (the wiki's context). What repeats only across one
 * note's retries is not marked: most notes converge at the first attempt, and a mark on text read
 * once costs 1.25× and saves nothing.
 *
 * A prefix shorter than the model's minimum is never cached, so it is not marked: the minimums are
 * Anthropic's (docs.claude.com, "Prompt caching" → cache limitations), by model family; an unknown
 * model gets the smallest, where a mark too short is simply ignored by the API.
 */
import { estimateTokens } from "../call";
import type { PromptPair } from "../prompts";

export const EPHEMERAL = { type: "ephemeral" } as const;

/** Longest prefix first: "claude-opus-4-5-20251101" matches "claude-opus-4-5". */
const MINIMUMS: readonly (readonly [string, number])[] = [
  ["claude-opus-4-6", 4096],
  ["claude-opus-4-5", 4096],
  ["claude-haiku-4-5", 4096],
  ["claude-sonnet-4-6", 2048],
  ["claude-3-5-haiku", 2048],
  ["claude-3-haiku", 2048],
];

/** Sonnet 4.5, Opus 4.1, Opus 4, Sonnet 4, Sonnet 3.7. */
const DEFAULT_MINIMUM = 1024;

/** The fewest prompt tokens Anthropic caches for `model`. */
export function cacheMinimum(model: string): number {
  const bare = model.includes("/") ? model.slice(model.lastIndexOf("/") + 1) : model;
  return MINIMUMS.find(([prefix]) => bare.startsWith(prefix))?.[1] ?? DEFAULT_MINIMUM;
}

export interface TextBlock {
  readonly type: "text";
  readonly text: string;
  readonly cache_control?: typeof EPHEMERAL;
}

export interface CachedPrompt {
  /** A string when nothing is marked; blocks when the system prompt carries the mark. */
  readonly system: string | readonly TextBlock[];
  readonly user: string | readonly TextBlock[];
}

/**
 * The system prompt and user message with their stable prefixes marked where each is long enough.
 * `before`: the text the API caches ahead of the system prompt (the tool definition).
 */
export function cachedPrompt(pair: PromptPair, before: string, model: string): CachedPrompt {
  const minimum = cacheMinimum(model);
  const systemTokens = estimateTokens(before + pair.system);
  const markSystem = systemTokens >= minimum;
  // The longest part that repeats across notes; parts that only a retry of this note repeats are left alone.
  const acrossNotes = (pair.stable ?? []).filter((part) => part.stableFor === "notes" && part.text !== "" && pair.user.startsWith(part.text));
  const stable = acrossNotes.reduce((longest, part) => (part.text.length > longest.length ? part.text : longest), "");
  const markUser = stable !== "" && systemTokens + estimateTokens(stable) >= minimum;
  return {
    system: markSystem ? [{ type: "text", text: pair.system, cache_control: EPHEMERAL }] : pair.system,
    user: markUser
      ? [
          { type: "text", text: stable, cache_control: EPHEMERAL },
          { type: "text", text: pair.user.slice(stable.length) },
        ]
      : pair.user,
  };
}
