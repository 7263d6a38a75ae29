/**
 * What is known about pairs of titles that looked alike at an ingest: the same subject or not, and
 * who said so — the model (asked once, model-confirm.ts) or the user (who refused the match at
 * review). Kept in the StateStore, as lint keeps its pair verdicts (lint/pair-cache.ts), so the same
 * pair is never asked again and a refused match stays refused.
 *
 * A pair is keyed by both titles (`titleKey`, in either order), not by the pages' text: generated
 * pages differ from run to run, and what the user refused is the pair of subjects.
 */
import * as z from "zod";
import type { StateStore } from "../../vault/state-store";
import { titleKey } from "../page-identity";
import type { PageMatch } from "../../write/planned-change";

export const MATCH_VERDICTS_KEY = "match-verdicts.json";

const VerdictSchema = z.object({
  same: z.boolean(),
  by: z.enum(["model", "user"]),
  /** Why, as the end of a sentence ("the model judged …"), for the review and the result. */
  reason: z.string(),
});
export type MatchVerdict = z.infer<typeof VerdictSchema>;

const FileSchema = z.object({ version: z.literal(1), pairs: z.record(z.string(), VerdictSchema) });

export function verdictKey(first: string, second: string): string {
  return JSON.stringify([titleKey(first), titleKey(second)].sort());
}

export class MatchVerdicts {
  private readonly changed = new Map<string, MatchVerdict>();
  /** Whether any pair was kept apart by the user; worked out once, when first asked. */
  private anyRefusal: boolean | null = null;

  private constructor(
    private readonly store: StateStore | null,
    private readonly pairs: Map<string, MatchVerdict>,
  ) {}

  /** Nothing kept between runs (tests, a caller without a state folder). */
  static inMemory(): MatchVerdicts {
    return new MatchVerdicts(null, new Map());
  }

  /** A damaged or unknown record is started afresh: it saves model calls and remembers refusals, nothing more. */
  static async load(store: StateStore): Promise<MatchVerdicts> {
    return new MatchVerdicts(store, await readPairs(store));
  }

  get(first: string, second: string): MatchVerdict | undefined {
    return this.pairs.get(verdictKey(first, second));
  }

  /** Did the user keep these two apart at a review? Such a pair is never matched again, not even by alias. */
  keptApart(first: string, second: string): boolean {
    // Asked of every candidate page at every ingest: without a single refusal there is nothing to look up.
    this.anyRefusal ??= [...this.pairs.values()].some((v) => v.by === "user");
    if (!this.anyRefusal) return false;
    const found = this.get(first, second);
    return found?.by === "user" && !found.same;
  }

  /** A model's verdict never overrides the user's. */
  set(first: string, second: string, verdict: MatchVerdict): void {
    const key = verdictKey(first, second);
    if (verdict.by === "model" && this.pairs.get(key)?.by === "user") return;
    this.pairs.set(key, verdict);
    this.changed.set(key, verdict);
    // A user's verdict is never replaced by a model's, so once there is one there always is.
    if (verdict.by === "user") this.anyRefusal = true;
  }

  /** The user left a matched change out at review: the two are different subjects from now on. */
  refuse(match: PageMatch): void {
    this.set(match.newTitle, match.existingTitle, { same: false, by: "user", reason: "you kept them apart at a review" });
  }

  /** Writes the verdicts of this run over the record as it is now (another run may have added its own). */
  async save(): Promise<void> {
    if (!this.store || this.changed.size === 0) return;
    const current = await readPairs(this.store);
    for (const [key, verdict] of this.changed) {
      if (verdict.by === "model" && current.get(key)?.by === "user") continue;
      current.set(key, verdict);
    }
    await this.store.write(MATCH_VERDICTS_KEY, `${JSON.stringify({ version: 1, pairs: Object.fromEntries(current) })}\n`);
    this.changed.clear();
  }
}

async function readPairs(store: StateStore): Promise<Map<string, MatchVerdict>> {
  const text = await store.read(MATCH_VERDICTS_KEY);
  let data: unknown = null;
  try {
    data = text === null ? null : JSON.parse(text);
  } catch {
    data = null;
  }
  const parsed = FileSchema.safeParse(data);
  return new Map(parsed.success ? Object.entries(parsed.data.pairs) : []);
}
