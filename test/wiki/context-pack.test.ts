import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { packHits, packedText } from "../../src/wiki/ingest/context-pack";
import { estimateTokens, truncateToTokens } from "../../src/core/tokens";
import type { RetrievalHit } from "../../src/retrieval/types";

function hit(path: string, text: string, score = 1, heading = ""): RetrievalHit {
  return Object.freeze({ path, heading, score, snippet: text.slice(0, 40), text });
}

/** Chunk text of every kind the vault holds: prose, CJK, code fences (some left open), inline code. */
const chunkText = fc.oneof(
  fc.string({ maxLength: 3000 }),
  fc.array(fc.constantFrom("word ", "日本語の", "```js\n", "code();\n", "```\n", "~~~\n", "`x` ", "\n", "# Heading\n", "Привет "), { maxLength: 400 }).map((parts) => parts.join("")),
);

const hits = fc.array(fc.record({ name: fc.stringMatching(/^[a-z]{1,12}$/), text: chunkText, heading: fc.constantFrom("", "Intro", "```"), }), { maxLength: 30 }).map((xs) =>
  xs.map((x, i) => hit(`wiki/concepts/${x.name}-${i}.md`, x.text, 30 - i, x.heading)),
);

describe("context packing", () => {
  it("never exceeds the budget, whatever the hits and the budget", () => {
    fc.assert(
      fc.property(hits, fc.integer({ min: 0, max: 5000 }), (list, budget) => {
        const packed = packHits(list, budget);
        expect(packed.usedTokens).toBeLessThanOrEqual(budget);
        expect(estimateTokens(packedText(packed))).toBeLessThanOrEqual(budget);
        // Every hit is either quoted or reported as left out, and the order is kept (best first).
        expect(packed.blocks.length + packed.omitted.length).toBe(list.length);
        const order = packed.blocks.map((b) => list.indexOf(b.hit));
        expect([...order].sort((a, b) => a - b)).toEqual(order);
      }),
      { numRuns: 1000 },
    );
  });

  it("keeps an empty code block from swallowing the blocks after it", () => {
    const list = [hit("wiki/a.md", "```js\n", 3), hit("wiki/b.md", "", 2), hit("wiki/c.md", "", 1)];
    const packed = packHits(list, 33);
    expect(estimateTokens(packedText(packed))).toBeLessThanOrEqual(33);
  });

  it("takes hits best first and skips one that does not fit for a smaller one after it", () => {
    const big = hit("wiki/a.md", "long ".repeat(2000), 3);
    const best = hit("wiki/best.md", "best words", 4);
    const small = hit("wiki/small.md", "small", 2);
    const packed = packHits([best, big, small], 100);
    expect(packed.blocks.map((b) => b.hit.path)).toEqual(["wiki/best.md", "wiki/small.md"]);
    expect(packed.omitted.map((o) => o.path)).toEqual(["wiki/a.md"]);
    expect(packed.omitted[0]?.tokens).toBeGreaterThan(2000);
  });

  it("cuts the best hit to fit rather than leaving it out", () => {
    const packed = packHits([hit("wiki/huge.md", "sentence ".repeat(5000))], 500);
    expect(packed.blocks).toHaveLength(1);
    expect(packed.blocks[0]?.truncated).toBe(true);
    expect(packed.usedTokens).toBeLessThanOrEqual(500);
    expect(packed.usedTokens).toBeGreaterThan(400);
  });

  it("quotes nothing into a budget of zero", () => {
    const packed = packHits([hit("wiki/a.md", "text")], 0);
    expect(packed.blocks).toEqual([]);
    expect(packed.omitted).toHaveLength(1);
  });
});

describe("token estimate", () => {
  it("weighs each character by its script, and code at three characters a token", () => {
    expect(estimateTokens("a".repeat(400))).toBe(120);
    expect(estimateTokens("日".repeat(300))).toBe(420);
    expect(estimateTokens("д".repeat(100))).toBe(70);
    expect(estimateTokens("é".repeat(100))).toBe(200);
    expect(estimateTokens("```\n" + "x".repeat(296) + "\n```")).toBe(Math.ceil(304 / 3));
    expect(estimateTokens("")).toBe(0);
  });

  it("truncates to a prefix within the budget", () => {
    fc.assert(
      fc.property(chunkText, fc.integer({ min: 0, max: 800 }), (text, tokens) => {
        const cut = truncateToTokens(text, tokens);
        expect(text.startsWith(cut)).toBe(true);
        expect(estimateTokens(cut)).toBeLessThanOrEqual(tokens);
      }),
    );
  });
});
