import { describe, expect, it } from "vitest";
import { looselySame, looseTitle, titleMayReach, titleSimilarity } from "../../src/wiki/ingest/title-similarity";

/** Dice over bigram strings, as written first: the reference the sorted-array merge must equal. */
function referenceDice(a: string, b: string): number {
  if (a === b) return 1;
  const grams = (t: string) => {
    const out = new Map<string, number>();
    for (let i = 0; i < t.length - 1; i++) out.set(t.slice(i, i + 2), (out.get(t.slice(i, i + 2)) ?? 0) + 1);
    return out;
  };
  const x = grams(a);
  const y = grams(b);
  let shared = 0;
  for (const [g, n] of x) shared += Math.min(n, y.get(g) ?? 0);
  const total = a.length - 1 + (b.length - 1);
  return total > 0 ? (2 * shared) / total : 0;
}

const titles = ["Gossip protocol", "Gossip protocols", "Protocol gossip", "Banana bandana", "Nana", "Ananas", "A", "", "Zettelkästen", "Zettelkasten", "東京タワー", "東京", "𝔘nicode 𝔗itle", "𝔘nicode", "The Beatles", "Beatle", "Mississippi", "Missis sippi"];

describe("title similarity", () => {
  it("is 1 for titles the same but for accents, case, plurals and spacing, else the bigram Dice overlap of the loose titles", () => {
    expect(titleSimilarity("Smart phone", "Smartphones")).toBe(1);
    expect(looselySame("Buses", "Bus")).toBe(true);
    for (const a of titles) {
      for (const b of titles) {
        const expected = looselySame(a, b) ? 1 : referenceDice(looseTitle(a), looseTitle(b));
        expect(titleSimilarity(a, b), `${a} / ${b}`).toBeCloseTo(expected, 12);
      }
    }
  });

  it("says a pair may reach a threshold whenever its similarity does", () => {
    for (const threshold of [0.3, 0.5, 0.8]) {
      for (const a of titles) for (const b of titles) if (titleSimilarity(a, b) >= threshold) expect(titleMayReach(a, b, threshold), `${a} / ${b}`).toBe(true);
    }
    expect(titleMayReach("Nana", "Mississippi river delta", 0.5)).toBe(false);
  });
});
