/**
 * Prompt caching (issue 28): what repeats from note to note comes first in every request and, on
 * Anthropic, carries `cache_control` where it is long enough to be cached; the scripted servers
 * compute cache reads and writes as each provider documents them; the usage ledger keeps cached
 * input apart and prices it at each provider's rate.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { orchestrate, type OrchestratorOptions } from "../../src/core/orchestrator";
import { costAt, estimateCost, priceFor } from "../../src/core/pricing";
import { createRunContext, type RunContext } from "../../src/core/run-context";
import { createProvider } from "../../src/providers/factory";
import { cacheMinimum, cachedPrompt, RepeatMemory } from "../../src/providers/anthropic/prompt-cache";
import { generatePrompt } from "../../src/providers/prompts";
import { formatUsageLine } from "../../src/providers/usage-summary";
import { SettingsSchema } from "../../src/settings/schema";
import { startScriptedServer, type Protocol, type ScriptedServer } from "../helpers/scripted-server";
import { ANALYSIS, NOTE_PATH, REPLIES, SERVER_MODELS, VALID, content, envFor } from "./harness";

/** What the analysis is told of the wiki, the same for related notes: about 1,100 tokens of page titles. */
const WIKI_CONTEXT = `The wiki (folder "wiki") has 240 pages. The pages most related to this note, best first: ${Array.from({ length: 40 }, (_, i) => `Obsidian Bases view number ${i + 1} with its own properties and filters`).join("; ")}`;

const NOTES = [
  { path: "notes/Bases views.md", text: "# Bases views\n\nA base shows notes as a table, with one row per note and a column per property." },
  { path: "notes/Bases filters.md", text: "# Bases filters\n\nA filter keeps only the notes whose properties match; views can each have their own." },
];

const OPTIONS: OrchestratorOptions = { maxIter: 1, tokenBudget: 0, retrievalContext: "", vaultContext: WIKI_CONTEXT };

function noteRun(note: (typeof NOTES)[number]): RunContext {
  return createRunContext({ source: { path: note.path, text: note.text }, timeoutMs: 20_000 });
}

describe.each(["anthropic", "openai"] as const)("prompt caching on %s", (protocol: Protocol) => {
  let server: ScriptedServer;
  const model = protocol === "anthropic" ? "claude-sonnet-4-5" : "gpt-4.1-mini";
  beforeAll(async () => {
    server = await startScriptedServer({ protocol, script: VALID, models: SERVER_MODELS[protocol], promptCache: true });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.reset();
    // Each note's pages cite that note.
    const pagesFor = (path: string) => content(REPLIES.pages.replaceAll(NOTE_PATH, path));
    server.setScript([content(REPLIES.analysis), pagesFor(NOTES[0]!.path), content(REPLIES.analysis), pagesFor(NOTES[1]!.path), content(REPLIES.analysis), pagesFor(NOTES[0]!.path)]);
  });

  it("ingesting related notes reads the cache once the wiki's context repeats, and the ledger prices it", async () => {
    // One adapter per note, as the plugin and the CLI build them.
    const ingest = async (note: (typeof NOTES)[number]) => {
      const run = noteRun(note);
      expect((await orchestrate(createProvider(protocol, envFor(protocol, server, { model })), OPTIONS, run)).converged).toBe(true);
      return run;
    };
    const first = await ingest(NOTES[0]!);
    const middle = await ingest(NOTES[1]!);
    const second = await ingest(NOTES[0]!);
    expect(first.usage.cache().cacheReadTokens).toBe(0);
    const read = second.usage.cache().cacheReadTokens;
    expect(read).toBeGreaterThanOrEqual(1024);
    // Cached input is part of the input count, and priced at the provider's cached rate.
    const totals = second.usage.totals();
    expect(read).toBeLessThan(totals.inputTokens);
    const price = priceFor(model)!;
    const { cacheWriteTokens } = second.usage.cache();
    const expected = ((totals.inputTokens - read - cacheWriteTokens) * price.input + read * price.cacheRead! + cacheWriteTokens * price.cacheWrite! + totals.outputTokens * price.output) / 1_000_000;
    expect(estimateCost(model, totals.inputTokens, totals.outputTokens, {}, second.usage.cache())).toBeCloseTo(expected, 12);
    expect(expected).toBeLessThan(estimateCost(model, totals.inputTokens, totals.outputTokens)!);
    if (protocol === "anthropic") {
      // Anthropic: the context is marked once it repeats (the second note), written then at 1.25×, read after.
      expect(first.usage.cache().cacheWriteTokens).toBe(0);
      expect(middle.usage.cache().cacheWriteTokens).toBeGreaterThanOrEqual(1024);
      expect(price.cacheWrite).toBeCloseTo(price.input * 1.25, 12);
      expect(price.cacheRead).toBeCloseTo(price.input * 0.1, 12);
    } else {
      // OpenAI reports cached tokens in steps of 128 from 1,024, and bills no write.
      expect((read - 1024) % 128).toBe(0);
      expect(first.usage.cache().cacheWriteTokens).toBe(0);
      expect(middle.usage.cache().cacheReadTokens).toBeGreaterThanOrEqual(1024);
    }
  });
});

describe("Anthropic request bodies carry cache_control where the prefix is long enough", () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedServer({ protocol: "anthropic", script: VALID, models: SERVER_MODELS.anthropic, promptCache: true });
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  /** The second of two analyses with the same wiki context: the wiki's context is marked once it repeats. */
  const analyzeBody = async (model: string, vaultContext: string) => {
    server.setScript([{ kind: "content", text: REPLIES.analysis }, { kind: "content", text: REPLIES.analysis }]);
    for (const note of NOTES) await createProvider("anthropic", envFor("anthropic", server, { model })).analyze(note.text, vaultContext, noteRun(note));
    const [first, second] = server.modelRequests().map((r) => r.body as { system: unknown; messages: { content: unknown }[] });
    expect(typeof first!.messages[0]!.content).toBe("string");
    return second!;
  };

  it("marks the end of the wiki's context, before the note, and leaves the note unmarked", async () => {
    const body = await analyzeBody("claude-sonnet-4-5", WIKI_CONTEXT);
    const content = body.messages[0]!.content as { type: string; text: string; cache_control?: unknown }[];
    expect(content).toHaveLength(2);
    expect(content[0]!.text).toContain(WIKI_CONTEXT);
    expect(content[0]!.cache_control).toEqual({ type: "ephemeral" });
    expect(content[1]!.text).toContain(NOTES[1]!.text);
    expect(content[1]!).not.toHaveProperty("cache_control");
  });

  it("marks nothing below the model's minimum (Haiku 4.5 caches from 4,096 tokens)", async () => {
    const body = await analyzeBody("claude-haiku-4-5", WIKI_CONTEXT);
    expect(typeof body.system).toBe("string");
    expect(typeof body.messages[0]!.content).toBe("string");
    expect(JSON.stringify(body)).not.toContain("cache_control");
  });

  it("does not mark a system prompt shorter than the minimum, even when the user's stable part makes the prefix long enough", async () => {
    const body = await analyzeBody("claude-sonnet-4-5", WIKI_CONTEXT.repeat(3));
    // The system prompt alone (~500 tokens) is under Sonnet 4.5's 1,024: only the user's stable part is marked.
    expect(typeof body.system).toBe("string");
    const content = body.messages[0]!.content as { cache_control?: unknown }[];
    expect(content[0]!.cache_control).toEqual({ type: "ephemeral" });
  });
});

describe("prompt order keeps the repeated part first", () => {
  const schema = { type: "object" };
  const RELATED = "### [[Bases]] (wiki/Bases.md)\nA base shows notes as a table.";

  it("the page-writing system prompt is the same for every note: the note's path and language come after it", () => {
    const a = generatePrompt({ analysis: ANALYSIS, note: NOTES[0]!.text, related: "" }, schema, noteRun(NOTES[0]!));
    const b = generatePrompt({ analysis: { ...ANALYSIS, language: "de" }, note: NOTES[1]!.text, related: "" }, schema, noteRun(NOTES[1]!));
    expect(a.system).toBe(b.system);
    expect(a.system).not.toContain(NOTES[0]!.path);
    expect(a.user.startsWith("For this note:")).toBe(true);
    expect(a.user).toContain(`"frontmatter.sources" lists "${NOTES[0]!.path}" exactly`);
  });

  it("the wiki's context opens the user message, the note's part follows, and a retry's feedback comes last", () => {
    const first = generatePrompt({ analysis: ANALYSIS, note: NOTES[0]!.text, related: RELATED }, schema, noteRun(NOTES[0]!));
    const retry = generatePrompt({ analysis: ANALYSIS, note: NOTES[0]!.text, related: RELATED, feedback: "Feedback: fix the title." }, schema, noteRun(NOTES[0]!));
    const other = generatePrompt({ analysis: ANALYSIS, note: NOTES[1]!.text, related: RELATED }, schema, noteRun(NOTES[1]!));
    const [acrossNotes, acrossRetries] = first.stable ?? [];
    expect(acrossNotes).toEqual({ text: `Related wiki content and notes:\n${RELATED}\n\n`, stableFor: "notes" });
    expect(acrossRetries?.stableFor).toBe("retries");
    // Each part is a start of the next and of the message; the note's part ends with the note.
    expect(acrossRetries?.text.startsWith(acrossNotes!.text)).toBe(true);
    expect(acrossRetries?.text.trimEnd().endsWith("</source>")).toBe(true);
    expect(first.user).toBe(acrossRetries?.text);
    // Another note shares the wiki's part; a retry shares the note's part and adds the feedback after it.
    expect(other.user.startsWith(acrossNotes!.text)).toBe(true);
    expect(other.user.startsWith(acrossRetries!.text)).toBe(false);
    expect(retry.user.startsWith(acrossRetries!.text)).toBe(true);
    expect(retry.user.endsWith("Feedback: fix the title.")).toBe(true);
  });
});

describe("pricing and showing cached input", () => {
  it("prices cache reads and writes at their own rates, and an override without them at the input price", () => {
    const usage = { inputTokens: 10_000, outputTokens: 1_000, cacheReadTokens: 6_000, cacheWriteTokens: 2_000 };
    // Sonnet 4.5: $3 in, $15 out; reads 0.1×, 5-minute writes 1.25×.
    expect(costAt(priceFor("claude-sonnet-4-5")!, usage)).toBeCloseTo((2_000 * 3 + 6_000 * 0.3 + 2_000 * 3.75 + 1_000 * 15) / 1e6, 12);
    // GPT-4.1 mini: cached input $0.10 against $0.40, no write premium.
    expect(costAt(priceFor("gpt-4.1-mini")!, usage)).toBeCloseTo((4_000 * 0.4 + 6_000 * 0.1 + 1_000 * 1.6) / 1e6, 12);
    expect(costAt({ input: 1, output: 2 }, usage)).toBeCloseTo((10_000 * 1 + 1_000 * 2) / 1e6, 12);
  });

  it("reads price overrides written before cache prices existed", () => {
    const settings = SettingsSchema.parse({ prices: { "my-model": { input: 1, output: 2 } } });
    expect(settings.prices["my-model"]).toEqual({ input: 1, output: 2 });
    expect(SettingsSchema.parse({ prices: { m: { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 1.25 } } }).prices.m?.cacheRead).toBe(0.1);
  });

  it("shows the cached part of the input in the usage line, and nothing when there is none", () => {
    expect(formatUsageLine({ inputTokens: 5_000, outputTokens: 300, cacheReadTokens: 4_096 }, { isLocal: false, model: "claude-sonnet-4-5" }, 0.01)).toBe("5,000 in (4,096 read from the prompt cache) / 300 out tokens, ~$0.01");
    expect(formatUsageLine({ inputTokens: 5_000, outputTokens: 300, cacheWriteTokens: 1_200 }, { isLocal: false, model: "claude-sonnet-4-5" }, 0.01)).toBe("5,000 in (1,200 written to the prompt cache) / 300 out tokens, ~$0.01");
    expect(formatUsageLine({ inputTokens: 5_000, outputTokens: 300 }, { isLocal: false, model: "claude-sonnet-4-5" }, 0.01)).toBe("5,000 in / 300 out tokens, ~$0.01");
  });
});

describe("cachedPrompt", () => {
  it("marks the part that repeats across notes and never the part only a retry repeats", () => {
    const wiki = "Related wiki content: ".repeat(700);
    const note = `${wiki}For this note: the note's text.`;
    const pair = { system: "Instructions.", user: `${note}\n\nFeedback.`, stable: [{ text: wiki, stableFor: "notes" as const }, { text: note, stableFor: "retries" as const }] };
    expect(cachedPrompt(pair, "", "claude-sonnet-4-5").user).toEqual([
      { type: "text", text: wiki, cache_control: { type: "ephemeral" } },
      { type: "text", text: "For this note: the note's text.\n\nFeedback." },
    ]);
    // With no wiki context, only a retry would read the note's part again: nothing is marked.
    const alone = { system: "Instructions.", user: `${"The note. ".repeat(700)}Feedback.`, stable: [{ text: "The note. ".repeat(700), stableFor: "retries" as const }] };
    expect(cachedPrompt(alone, "", "claude-sonnet-4-5").user).toBe(alone.user);
  });

  it("marks the system prompt when it alone (after the tools) is long enough", () => {
    const pair = { system: "Instructions. ".repeat(400), user: "The note." };
    const marked = cachedPrompt(pair, "", "claude-sonnet-4-5");
    expect(marked.system).toEqual([{ type: "text", text: pair.system, cache_control: { type: "ephemeral" } }]);
    expect(marked.user).toBe("The note.");
    // The tool definition counts toward the prefix: cached before the system prompt.
    expect(cachedPrompt({ system: "Short.", user: "x" }, "t".repeat(4100), "claude-sonnet-4-5").system).not.toBe("Short.");
    expect(cachedPrompt(pair, "", "claude-opus-4-6").system).toBe(pair.system);
    expect(cacheMinimum("claude-haiku-4-5-20251001")).toBe(4096);
    expect(cacheMinimum("claude-sonnet-4-5-20250929")).toBe(1024);
  });

  it("marks the wiki's context only once it has been sent again within the cache's lifetime", () => {
    let now = 0;
    const memory = new RepeatMemory(() => now);
    const ask = (wiki: string) => {
      const pair = { system: "Instructions.", user: `${wiki}For this note: a note.`, stable: [{ text: wiki, stableFor: "notes" as const }] };
      return Array.isArray(cachedPrompt(pair, "", "claude-sonnet-4-5", memory).user);
    };
    const growing = (n: number) => `Related wiki content, ${n} pages: `.repeat(700);
    // A folder ingest whose context changes with every note: never marked, so never written at 1.25× for nothing.
    expect([1, 2, 3].map((n) => ask(growing(n)))).toEqual([false, false, false]);
    // The same context again: marked from its second sending on, written once and read after.
    expect([ask(growing(9)), ask(growing(9)), ask(growing(9))]).toEqual([false, true, true]);
    // Past the five minutes a cached prefix lives, it counts as new.
    now += 5 * 60_000 + 1;
    expect(ask(growing(9))).toBe(false);
  });
});
