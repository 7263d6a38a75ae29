/**
 * A question's limits, as for an ingest: the "Token budget" setting bounds what is packed into the
 * context; a question the budget cannot hold, or whose relevant passages none of them fit, is refused
 * with one sentence naming the setting and nothing is sent; the run's deadline stops a stream.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { askWiki, NOT_IN_WIKI } from "../../src/query/ask";
import { ANSWER_TOKENS, PROMPT_TOKENS, questionBudget } from "../../src/query/budget";
import { estimateTokens } from "../../src/core/tokens";
import { DEFAULT_SETTINGS, type Settings } from "../../src/settings/schema";
import { MemoryVault } from "../../src/vault/memory-vault";
import { ChatProvider, FixedRetriever, hit } from "./fakes";

const QUESTION = "What did Babbage design for the Analytical Engine?";

/** `count` wiki pages about the engine, each `words` words long. */
function wiki(count: number, words: number) {
  const files: Record<string, string> = {};
  const hits = [];
  for (let i = 0; i < count; i++) {
    const path = `wiki/concepts/Engine part ${i}.md`;
    const text = `The Analytical Engine part ${i} that Babbage designed. ${"gear ".repeat(words)}`.trim();
    files[path] = `---\ntype: concept\n---\n${text}`;
    hits.push(hit(path, text));
  }
  return { vault: new MemoryVault(files), hits };
}

function settings(overrides: Partial<Settings> = {}): Settings {
  return { ...structuredClone(DEFAULT_SETTINGS), ...overrides };
}

function ask(count: number, words: number, overrides: Partial<Settings>, options: { maxContext?: number; history?: { role: "user" | "assistant"; content: string }[] } = {}) {
  const { vault, hits } = wiki(count, words);
  const provider = new ChatProvider(["Babbage designed it [[Engine part 0]]."], { maxContext: options.maxContext ?? 200_000 });
  const retriever = new FixedRetriever(hits);
  const report = askWiki({ vault, provider, retriever, settings: settings(overrides) }, { question: QUESTION, ...(options.history ? { history: options.history } : {}) });
  return { report, provider, retriever };
}

describe("a question within the token budget", () => {
  it("packs only the passages the budget leaves room for, and counts the others as left out", async () => {
    // Each passage is about 130 tokens; a budget of 2,000 leaves room for a few of the ten.
    const { report: pending, provider } = ask(10, 120, { tokenBudget: 2000 });
    const report = await pending;
    expect(report.error).toBeNull();
    expect(provider.calls).toHaveLength(1);
    expect(report.passages.length).toBeGreaterThan(0);
    expect(report.passages.length).toBeLessThan(10);
    expect(report.leftOut).toBe(10 - report.passages.length);
    const sent = provider.calls[0]?.context ?? "";
    expect(PROMPT_TOKENS + estimateTokens(QUESTION) + estimateTokens(sent) + 500).toBeLessThanOrEqual(2000);
  });

  it("sends everything relevant that the model's window holds when the budget is 0 (no limit)", async () => {
    const { report: pending, provider } = ask(10, 120, { tokenBudget: 0 });
    const report = await pending;
    expect(report.error).toBeNull();
    expect(report.passages).toHaveLength(10);
    expect(provider.calls).toHaveLength(1);
  });

  it("refuses a question the budget cannot hold before reading or sending anything", async () => {
    const { report: pending, provider, retriever } = ask(3, 20, { tokenBudget: 500 });
    const report = await pending;
    expect(report.error?.kind).toBe("config");
    expect(report.error?.message).toMatch(/^This question needs about [\d,]+ tokens before any passage of your wiki is added .* more than the token budget of 500 \(setting "Token budget"\), so nothing was sent; raise the budget or shorten the question\.$/);
    expect(provider.calls).toEqual([]);
    expect(retriever.calls).toEqual([]);
    expect(report.answer).toBe("");
  });

  it("counts the conversation so far, and says it can be cleared", async () => {
    const history = [
      { role: "user" as const, content: "Tell me about the engine." },
      { role: "assistant" as const, content: "gear ".repeat(1500) },
    ];
    const { report: pending, provider } = ask(3, 20, { tokenBudget: 2000 }, { history });
    const report = await pending;
    expect(report.error?.message).toMatch(/the question, the conversation so far and room for the answer\).*clear the conversation/);
    expect(provider.calls).toEqual([]);
  });

  it("says the budget keeps the wiki's passages out, never 'not in your wiki', when none of them fits", async () => {
    const { report: pending, provider } = ask(3, 1200, { tokenBudget: 1500 });
    const report = await pending;
    expect(report.answer).not.toBe(NOT_IN_WIKI);
    expect(report.error).toEqual({
      kind: "config",
      message: 'None of the 3 relevant passages fits in the 1,500-token budget (setting "Token budget") once the question and room for the answer are counted, so nothing was sent; raise the budget to answer from your wiki.',
    });
    expect(provider.calls).toEqual([]);
  });

  it("says the model's window keeps the one relevant passage out when it is the window that is too small", async () => {
    const { report: pending, provider } = ask(1, 4000, { tokenBudget: 0 }, { maxContext: 4096 });
    const report = await pending;
    expect(report.error?.message).toMatch(/^The one relevant passage does not fit in the model's context window/);
    expect(provider.calls).toEqual([]);
  });

  it("keeps every question's request within the budget, whatever the budget and the passages (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 800 }), async (tokenBudget, count, words) => {
        const { report: pending, provider } = ask(count, words, { tokenBudget });
        const report = await pending;
        const call = provider.calls[0];
        if (report.error) {
          // Refused: nothing was sent, and the sentence names what to change.
          expect(report.error.kind).toBe("config");
          expect(report.error.message).toMatch(/Token budget|context window/);
          expect(call).toBeUndefined();
          return;
        }
        expect(call).toBeDefined();
        expect(report.passages.length + report.leftOut).toBe(count);
        if (tokenBudget > 0) {
          const reserve = Math.min(ANSWER_TOKENS, Math.floor(tokenBudget / 4));
          expect(PROMPT_TOKENS + estimateTokens(QUESTION) + estimateTokens(call?.context ?? "") + reserve).toBeLessThanOrEqual(tokenBudget);
        }
      }),
      { numRuns: 60 },
    );
  });

  it("gives the context what the budget leaves after the question, or the window's room when that is smaller", () => {
    expect(questionBudget({ maxContext: 100_000, tokenBudget: 10_000, question: "q", history: [] })).toEqual({
      contextTokens: 10_000 - PROMPT_TOKENS - 1 - ANSWER_TOKENS,
      limitedBy: "budget",
      tokenBudget: 10_000,
    });
    expect(questionBudget({ maxContext: 4096, tokenBudget: 100_000, question: "q", history: [] })).toMatchObject({ limitedBy: "window", contextTokens: 4096 - ANSWER_TOKENS - PROMPT_TOKENS - 1 });
  });
});

describe("a question's deadline", () => {
  it("stops the answer at the run timeout and reports it, keeping what had arrived", async () => {
    const { vault, hits } = wiki(1, 10);
    let clock = 0;
    // The clock passes the 1-second run timeout while the second piece is being written.
    const provider = new ChatProvider(["Babbage ", "designed ", "it."], {}, (i) => {
      if (i === 1) clock += 5_000;
    });
    const report = await askWiki({ vault, provider, retriever: new FixedRetriever(hits), settings: settings({ runTimeoutSeconds: 1 }), now: () => clock }, { question: QUESTION });
    expect(report.error?.kind).toBe("timeout");
    expect(report.answer).toBe("Babbage ");
  });
});
