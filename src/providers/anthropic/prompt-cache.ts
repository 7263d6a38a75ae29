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
 * The wiki's context is marked only once it has been seen to repeat (`RepeatMemory`). In a folder
 * ingest every note adds pages the next note is told about, so the context changes from note to
 * note: marked each time, it was written at 1.25× and never read (the prompt-cache bench measured
 * 1.14× the uncached cost). A context sent again within the cache's lifetime — notes checked
 * against a wiki that is not changing, proposals, a batch round — is likely to be sent again, so
 * from its second sending on it is marked, written once and read after.
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

/** How long Anthropic keeps a cached prefix after its last use (the default "ephemeral" lifetime). */
const CACHE_LIFETIME_MS = 5 * 60_000;
/** Contexts remembered; a folder ingest sends one at a time, so a few suffice. */
const REMEMBERED = 16;

/** The stable parts an adapter sent lately: a part sent again within the cache's lifetime is worth marking. */
export class RepeatMemory {
  private readonly sent = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Records `text` as sent now; true when it was already sent within the cache's lifetime. */
  repeats(text: string): boolean {
    const at = this.now();
    const last = this.sent.get(text);
    this.sent.delete(text);
    this.sent.set(text, at);
    for (const key of this.sent.keys()) {
      if (this.sent.size <= REMEMBERED) break;
      this.sent.delete(key);
    }
    return last !== undefined && at - last <= CACHE_LIFETIME_MS;
  }
}

const memories = new Map<string, RepeatMemory>();

/**
 * What was sent lately to one server and model. Shared by the adapters built for it: the plugin
 * and the CLI build one adapter per note, and the repeat that matters is from one note to the next.
 */
export function sentPrefixes(serverAndModel: string): RepeatMemory {
  let memory = memories.get(serverAndModel);
  if (!memory) memories.set(serverAndModel, (memory = new RepeatMemory()));
  return memory;
}

/**
 * The system prompt and user message with their stable prefixes marked where each is long enough.
 * `before`: the text the API caches ahead of the system prompt (the tool definition). `memory`:
 * the adapter's record of what it sent; without one, the wiki's context is marked whenever it is
 * long enough.
 */
export function cachedPrompt(pair: PromptPair, before: string, model: string, memory?: RepeatMemory): CachedPrompt {
  const minimum = cacheMinimum(model);
  const systemTokens = estimateTokens(before + pair.system);
  const markSystem = systemTokens >= minimum;
  // The longest part that repeats across notes; parts that only a retry of this note repeats are left alone.
  const acrossNotes = (pair.stable ?? []).filter((part) => part.stableFor === "notes" && part.text !== "" && pair.user.startsWith(part.text));
  const stable = acrossNotes.reduce((longest, part) => (part.text.length > longest.length ? part.text : longest), "");
  const repeated = stable !== "" && (memory ? memory.repeats(stable) : true);
  const markUser = repeated && systemTokens + estimateTokens(stable) >= minimum;
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
