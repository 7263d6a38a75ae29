/**
 * What the model said about each pair, kept in the StateStore under both pages' content hashes and
 * the model's name: a second lint asks again only about pairs where a page changed (or the model
 * did). Entries for pairs that no longer exist are dropped when the cache is written.
 */
import * as z from "zod";
import type { StateStore } from "../vault/state-store";
import { contentHash } from "../core/content-hash";
import type { PagePair } from "./pair-candidates";

export const PAIR_CACHE_KEY = "lint-model-checks.json";

const VerdictSchema = z.object({
  /** Verified passages: [on page a, on page b]. */
  contradictions: z.array(z.tuple([z.string(), z.string()])),
  duplicate: z.boolean(),
  reason: z.string(),
});
export type PairVerdict = z.infer<typeof VerdictSchema>;

const CacheSchema = z.object({ version: z.literal(1), verdicts: z.record(z.string(), VerdictSchema) });

/** The pair without its content: `knownPairs` answers with these. */
export function pairPaths(pair: PagePair, model: string): string {
  return `${model}|${pair.a.path}|${pair.b.path}`;
}

export function pairKey(pair: PagePair, model: string): string {
  return `${model}|${pair.a.path}|${contentHash(pair.a.text)}|${pair.b.path}|${contentHash(pair.b.text)}`;
}

export class PairCache {
  private constructor(
    private readonly store: StateStore,
    private readonly verdicts: Map<string, PairVerdict>,
  ) {}

  /** A damaged or unknown cache is started afresh: it only saves model calls. */
  static async load(store: StateStore): Promise<PairCache> {
    const text = await store.read(PAIR_CACHE_KEY);
    let data: unknown = null;
    try {
      data = text === null ? null : JSON.parse(text);
    } catch {
      data = null;
    }
    const parsed = CacheSchema.safeParse(data);
    return new PairCache(store, new Map(parsed.success ? Object.entries(parsed.data.verdicts) : []));
  }

  /**
   * Pairs (by model and both paths, whatever their content) that have a verdict: a pair known but
   * not cached now has a page that changed since the last lint.
   */
  knownPairs(): Set<string> {
    return new Set([...this.verdicts.keys()].map((key) => key.replace(/\|[0-9a-f]{16}\|/, "|").replace(/\|[0-9a-f]{16}$/, "")));
  }

  get(key: string): PairVerdict | undefined {
    return this.verdicts.get(key);
  }

  set(key: string, verdict: PairVerdict): void {
    this.verdicts.set(key, verdict);
  }

  /** Writes the verdicts of the pairs still in the wiki (`keep`), dropping the rest. */
  async save(keep: ReadonlySet<string>): Promise<void> {
    const verdicts = Object.fromEntries([...this.verdicts].filter(([key]) => keep.has(key)));
    await this.store.write(PAIR_CACHE_KEY, `${JSON.stringify({ version: 1, verdicts })}\n`);
  }
}
