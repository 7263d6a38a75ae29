import { describe, expect, it } from "vitest";
import type { RunContext } from "../../src/core/run-context";
import type { Message } from "../../src/core/schemas";
import { askWiki, GENERAL_LABEL, MAX_QUESTION_CHARS, NOT_IN_WIKI } from "../../src/query/ask";
import { DEFAULT_SETTINGS, type Settings } from "../../src/settings/schema";
import { MemoryVault } from "../../src/vault/memory-vault";
import { ChatProvider, FixedRetriever, hit } from "./fakes";

const ADA = "wiki/entities/Ada Lovelace.md";
const ENGINE = "wiki/concepts/Analytical Engine.md";
const NOTE = "notes/babbage.md";

function vault(): MemoryVault {
  return new MemoryVault({
    [ADA]: "---\ntype: entity\n---\nAda Lovelace wrote the first program for the Analytical Engine.",
    [ENGINE]: "---\ntype: concept\n---\nThe Analytical Engine is a mechanical computer designed by Babbage.",
    [NOTE]: "Babbage designed the Analytical Engine in 1837.",
  });
}

const hits = [
  hit(ADA, "Ada Lovelace wrote the first program for the Analytical Engine."),
  hit(ENGINE, "The Analytical Engine is a mechanical computer designed by Babbage."),
  hit(NOTE, "Babbage designed the Analytical Engine in 1837."),
];

function settings(overrides: Partial<Settings> = {}): Settings {
  return { ...structuredClone(DEFAULT_SETTINGS), ...overrides };
}

describe("askWiki", () => {
  it("streams an answer grounded in wiki pages first and notes second, and verifies its citations", async () => {
    const provider = new ChatProvider(["Ada Lovelace wrote the first program ", "[[Ada Lovelace]], for the engine [2]."]);
    const pieces: string[] = [];
    const report = await askWiki(
      { vault: vault(), provider, retriever: new FixedRetriever(hits), settings: settings() },
      { question: "Who wrote the first program for the Analytical Engine?", onText: (t) => pieces.push(t) },
    );
    expect(report.error).toBeNull();
    expect(pieces).toEqual(["Ada Lovelace wrote the first program ", "[[Ada Lovelace]], for the engine [2]."]);
    expect(report.answer).toBe(pieces.join(""));
    expect(report.grounding).toBe("vault");
    expect(report.passages.map((p) => [p.ref, p.path, p.kind])).toEqual([
      [1, ADA, "wiki"],
      [2, ENGINE, "wiki"],
      [3, NOTE, "note"],
    ]);
    const sent = provider.calls[0]?.context ?? "";
    expect(sent.indexOf("[1] [[Ada Lovelace]]")).toBeLessThan(sent.indexOf("[3] [[babbage]]"));
    expect(report.citations).toEqual([
      { page: "Ada Lovelace", path: ADA, verified: true, reason: "", problem: null },
      { page: "Analytical Engine", path: ENGINE, verified: true, reason: "", problem: null },
    ]);
    expect(report.usage).toMatchObject({ inputTokens: 100, outputTokens: 20 });
  });

  it("marks a citation of a page that was not in the context, or does not exist, as unverified", async () => {
    const v = vault();
    await v.remove(ENGINE);
    const provider = new ChatProvider(["See [[Charles Babbage]], [[Analytical Engine]] and [7]."]);
    const report = await askWiki({ vault: v, provider, retriever: new FixedRetriever(hits), settings: settings() }, { question: "Who designed the Analytical Engine?" });
    expect(report.citations).toEqual([
      { page: "Charles Babbage", path: null, verified: false, reason: "This page was not among the passages sent to the model.", problem: "not-in-context" },
      { page: "Analytical Engine", path: ENGINE, verified: false, reason: "This page no longer exists in the vault.", problem: "page-gone" },
      { page: "[7]", path: null, verified: false, reason: "There is no passage 7 in the context that was sent.", problem: "no-such-passage" },
    ]);
    expect(report.unverifiedWarning).toMatch(/None of this answer's citations could be verified/);
  });

  it("labels an answer from the vault that cites nothing as unsupported, and one with a verified citation not", async () => {
    const bare = await askWiki({ vault: vault(), provider: new ChatProvider(["Babbage did."]), retriever: new FixedRetriever(hits), settings: settings() }, { question: "Who designed the Analytical Engine?" });
    expect(bare.grounding).toBe("vault");
    expect(bare.unverifiedWarning).toMatch(/cites no page of your wiki/);
    const cited = await askWiki({ vault: vault(), provider: new ChatProvider(["Babbage did [2]."]), retriever: new FixedRetriever(hits), settings: settings() }, { question: "Who designed the Analytical Engine?" });
    expect(cited.unverifiedWarning).toBeNull();
    const none = await askWiki({ vault: vault(), provider: new ChatProvider(["x"]), retriever: new FixedRetriever([]), settings: settings() }, { question: "What is nitrogen?" });
    expect(none.unverifiedWarning).toBeNull();
  });

  it("answers 'not in your wiki' without calling the model when nothing relevant is found", async () => {
    const provider = new ChatProvider(["should not be called"]);
    const report = await askWiki({ vault: vault(), provider, retriever: new FixedRetriever(hits), settings: settings() }, { question: "What is the boiling point of nitrogen?" });
    expect(provider.calls).toHaveLength(0);
    expect(report).toMatchObject({ answer: NOT_IN_WIKI, grounding: "none", citations: [], error: null });
  });

  it("labels a general answer, asked for when the vault has nothing, as not from the vault", async () => {
    const provider = new ChatProvider(["Nitrogen boils at 77 K."]);
    const report = await askWiki({ vault: vault(), provider, retriever: new FixedRetriever(hits), settings: settings() }, { question: "What is the boiling point of nitrogen?", general: true });
    expect(report.grounding).toBe("general");
    expect(report.answer).toBe(`${GENERAL_LABEL}Nitrogen boils at 77 K.`);
    expect(provider.calls[0]?.context).toBe("");
  });

  it("verifies a [[Page]] the backend read itself, with what it read; never a number, nor a page read in an excluded folder", async () => {
    const v = vault();
    await v.create("wiki/people/Charles Babbage.md", "---\ntype: entity\n---\nCharles Babbage designed it.");
    await v.create("private/diary.md", "Babbage's secret.");
    /** An agent-like provider: it reads pages of its own and says so through the run. */
    class ReadingProvider extends ChatProvider {
      override chat(messages: Message[], context: string, run: RunContext): AsyncIterable<string> {
        run.consulted?.([
          { path: "wiki/people/Charles Babbage.md", text: "---\ntype: entity\n---\nCharles Babbage designed it." },
          { path: "private/diary.md", text: "Babbage's secret." },
          { path: "wiki/people/Ghost.md", text: "Never existed." },
        ]);
        return super.chat(messages, context, run);
      }
    }
    const provider = new ReadingProvider(["[[Charles Babbage]] designed it [[Ada Lovelace]]; see [[diary]], [[Ghost]] and [9]."]);
    const report = await askWiki({ vault: v, provider, retriever: new FixedRetriever(hits), settings: settings({ excludedFolders: ["private"] }) }, { question: "Who designed the Analytical Engine?" });
    expect(report.citations.map((c) => [c.page, c.path, c.verified])).toEqual([
      ["Charles Babbage", "wiki/people/Charles Babbage.md", true],
      ["Ada Lovelace", ADA, true],
      ["diary", null, false],
      ["Ghost", "wiki/people/Ghost.md", false],
      ["[9]", null, false],
    ]);
    expect(report.citations.find((c) => c.page === "Ghost")?.reason).toBe("This page no longer exists in the vault.");
    expect(report.consulted).toEqual([
      { path: "wiki/people/Charles Babbage.md", title: "Charles Babbage", text: "Charles Babbage designed it.", kind: "wiki" },
      { path: "wiki/people/Ghost.md", title: "Ghost", text: "Never existed.", kind: "wiki" },
    ]);
  });

  it("never sends a passage from an excluded folder", async () => {
    const secret = hit("private/diary.md", "My Analytical Engine secret plans.");
    const provider = new ChatProvider(["ok"]);
    const report = await askWiki(
      { vault: vault(), provider, retriever: new FixedRetriever([...hits, secret]), settings: settings({ excludedFolders: ["Private"] }) },
      { question: "Analytical Engine plans?" },
    );
    expect(report.passages.map((p) => p.path)).not.toContain("private/diary.md");
    expect(provider.calls[0]?.context).not.toContain("secret");
  });

  it("never quotes a wiki page drawn from a note in an excluded folder", async () => {
    const v = vault();
    await v.create("wiki/concepts/Secret plans.md", "---\ntype: concept\nsources: [private/diary.md]\n---\nAnalytical Engine secret plans.");
    const provider = new ChatProvider(["ok"]);
    const retriever = new FixedRetriever([hit("wiki/concepts/Secret plans.md", "Analytical Engine secret plans."), ...hits]);
    const report = await askWiki({ vault: v, provider, retriever, settings: settings({ excludedFolders: ["private"] }) }, { question: "Analytical Engine plans?" });
    expect(report.passages.map((p) => p.path)).not.toContain("wiki/concepts/Secret plans.md");
    expect(provider.calls[0]?.context).not.toContain("secret");
  });

  it("answers from the wiki only when asked to", async () => {
    const provider = new ChatProvider(["ok"]);
    const report = await askWiki({ vault: vault(), provider, retriever: new FixedRetriever(hits), settings: settings({ queryScope: "wiki" }) }, { question: "Analytical Engine?" });
    expect(report.passages.map((p) => p.kind)).toEqual(["wiki", "wiki"]);
  });

  it.each([
    ["an empty question", "   ", /question is empty/],
    ["a question over the size limit", "x".repeat(MAX_QUESTION_CHARS + 1), /over the 4,000-character limit/],
  ])("refuses %s in one sentence, sending nothing", async (_name, question, message) => {
    const provider = new ChatProvider(["no"]);
    const retriever = new FixedRetriever(hits);
    const report = await askWiki({ vault: vault(), provider, retriever, settings: settings() }, { question });
    expect(report.error).toMatchObject({ kind: "input", message: expect.stringMatching(message) });
    expect(provider.calls).toHaveLength(0);
    expect(retriever.calls).toHaveLength(0);
  });

  it("says there is no wiki yet before sending anything", async () => {
    const provider = new ChatProvider(["no"]);
    const report = await askWiki({ vault: new MemoryVault({ [NOTE]: "x" }), provider, retriever: new FixedRetriever(hits), settings: settings() }, { question: "Analytical Engine?" });
    expect(report.error?.message).toBe('There is no wiki yet in "wiki"; ingest a note first, then ask.');
    expect(provider.calls).toHaveLength(0);
  });

  it("refuses a remote provider in local-only mode before anything is sent", async () => {
    const provider = new ChatProvider(["no"], { isLocal: false, name: "remote" });
    const report = await askWiki({ vault: vault(), provider, retriever: new FixedRetriever(hits), settings: settings({ localOnly: true }) }, { question: "Analytical Engine?" });
    expect(report.error?.kind).toBe("perimeter");
    expect(provider.calls).toHaveLength(0);
  });

  it("stops mid-stream when cancelled and reports it", async () => {
    const controller = new AbortController();
    const provider = new ChatProvider(["one ", "two ", "three"], {}, (i) => {
      if (i === 1) controller.abort();
    });
    const report = await askWiki({ vault: vault(), provider, retriever: new FixedRetriever(hits), settings: settings() }, { question: "Analytical Engine?", signal: controller.signal });
    expect(report.answer).toBe("one ");
    expect(report.error?.kind).toBe("cancelled");
  });
});

describe("askWiki and the wiki language", () => {
  it("asks for the answer in the wiki's language when the user fixed one, and leaves it free otherwise", async () => {
    const seen: (string | undefined)[] = [];
    class Recording extends ChatProvider {
      override chat(messages: Parameters<ChatProvider["chat"]>[0], context: string, run: Parameters<ChatProvider["chat"]>[2]) {
        seen.push(run.wikiLanguage);
        return super.chat(messages, context, run);
      }
    }
    const question = "Who wrote the first program for the Analytical Engine?";
    await askWiki({ vault: vault(), provider: new Recording(["[[Ada Lovelace]]"]), retriever: new FixedRetriever(hits), settings: settings({ wikiLanguage: "de" }) }, { question });
    await askWiki({ vault: vault(), provider: new Recording(["[[Ada Lovelace]]"]), retriever: new FixedRetriever(hits), settings: settings() }, { question });
    expect(seen).toEqual(["de", undefined]);
    const { chatMessages } = await import("../../src/providers/prompts");
    expect(chatMessages([], "ctx", "de")[0]?.content).toContain("Answer in German");
    expect(chatMessages([], "ctx")[0]?.content).not.toContain("Answer in");
  });
});
