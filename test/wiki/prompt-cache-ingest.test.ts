/**
 * Prompt caching through the real ingest (issue 28): two notes about one subject, ingested in
 * turn, are told the same related pages — ranked differently for each note, sent in one stable
 * order — so their requests repeat byte for byte up to each note's own part, and on Anthropic the
 * cache marks sit only on text that repeats. Each ingest goes through `ingestNote` with the real
 * adapters against the scripted servers on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SettingsSchema } from "../../src/settings/schema";
import { MemoryVault } from "../../src/vault/memory-vault";
import { buildIngestContext } from "../../src/wiki/ingest/retrieval-context";
import { ingestNote } from "../../src/wiki/ingest-note";
import { content, promptSent, providerFor, settingsFor } from "../providers/harness";
import { startScriptedServer, type RecordedRequest, type Reply, type ScriptedServer } from "../helpers/scripted-server";
import { wordOverlapRetriever } from "../helpers/word-overlap-retriever";

const page = (title: string, body: string) => `---\ntype: concept\ntitle: ${title}\nsources:\n  - notes/Garden.md\nlang: en\n---\n# ${title}\n\n${body}\n`;
/** Long enough that the system prompt and the wiki's context pass Anthropic's minimum. */
const filler = (topic: string) => ` Gardeners who grow ${topic} keep a diary of what worked in each season, which beds got the morning sun, and how the harvest compared.`.repeat(12);

const WIKI: Record<string, string> = {
  "wiki/concepts/Tomato blight.md": page("Tomato blight", `Blight is a fungus that spots tomato leaves brown; remove the spotted leaves.${filler("vegetables")}`),
  "wiki/concepts/Staking tomatoes.md": page("Staking tomatoes", `Tomato plants tied to stakes with soft twine stay upright.${filler("vegetables")}`),
  "wiki/concepts/Compost.md": page("Compost", `Compost feeds tomato beds with kitchen scraps.${filler("vegetables")}`),
  "wiki/concepts/Éclaircissage.md": page("Éclaircissage", `Thinning tomato seedlings gives each plant room.${filler("vegetables")}`),
  "wiki/entities/Kubernetes.md": page("Kubernetes", "Kubernetes schedules containers on a cluster of machines."),
};

/** Both notes touch every page's subject; each says more about one of them, so retrieval ranks the pages differently. */
const NOTES = [
  {
    path: "notes/Blight.md",
    text: "# Blight this summer\n\nBlight spots the tomato leaves. The stakes held, the compost helped, the seedlings needed thinning.\n",
  },
  {
    path: "notes/Stakes.md",
    text: "# Stakes this summer\n\nEach tomato plant is tied to stakes with soft twine. Some blight, good compost, and seedlings that needed thinning.\n",
  },
];

const analysisFor = (title: string) => ({ title, language: "en", summary: `A note on ${title}.`, topics: ["gardening"], entities: [], concepts: [{ name: title, description: "From the note." }] });

/** Like a model: an analysis, then one source page citing the note the request is for. */
function scriptedModel(request: RecordedRequest): Reply {
  const prompt = promptSent(request.body);
  // The wiki's pages cite other notes: the note's path names the request's note.
  const note = NOTES.find((n) => prompt.includes(n.path)) ?? NOTES[0]!;
  const title = /^# (.+)$/m.exec(note.text)?.[1] ?? "Note";
  if (prompt.includes("You analyse one source note")) return content(JSON.stringify(analysisFor(title)));
  const pages = [{ type: "source", title: `Notes on ${title}`, frontmatter: { sources: [note.path], lang: "en", tags: ["garden"] }, content: "About [[Compost]]." }];
  return content(JSON.stringify({ pages }));
}

interface Block {
  readonly text: string;
  readonly cache_control?: unknown;
}

/** The user message's text, whatever its shape. */
function userText(protocol: "openai" | "anthropic", body: unknown): string {
  const messages = (body as { messages: { role: string; content: string | Block[] }[] }).messages;
  const user = messages.find((m) => m.role === "user")!.content;
  return typeof user === "string" ? user : user.map((b) => b.text).join("");
}

/** The texts Anthropic caches up to: each marked block, system and user. */
function markedTexts(body: unknown): string[] {
  const b = body as { system: string | Block[]; messages: { content: string | Block[] }[] };
  const blocks = [...(typeof b.system === "string" ? [] : b.system), ...b.messages.flatMap((m) => (typeof m.content === "string" ? [] : m.content))];
  return blocks.filter((block) => block.cache_control !== undefined).map((block) => block.text);
}

const isAnalysis = (r: RecordedRequest) => promptSent(r.body).includes("You analyse one source note");
const isGeneration = (r: RecordedRequest) => promptSent(r.body).includes("You write pages for a personal wiki");

describe.each(["openai", "anthropic"] as const)("two related notes ingested in turn on %s", (protocol) => {
  let server: ScriptedServer;
  const model = protocol === "anthropic" ? "claude-sonnet-4-5" : "gpt-4.1-mini";
  beforeAll(async () => {
    server = await startScriptedServer({ protocol, script: scriptedModel, models: [{ name: model }], promptCache: true });
  });
  afterAll(() => server.close());

  async function ingestBoth(): Promise<{ analyses: RecordedRequest[]; generations: RecordedRequest[] }> {
    server.reset();
    const vault = new MemoryVault({ ...WIKI, ...Object.fromEntries(NOTES.map((n) => [n.path, n.text])) });
    const settings = SettingsSchema.parse(settingsFor(protocol, server.url, { model }));
    const retriever = wordOverlapRetriever(vault);
    // A dry run writes nothing, so the second note finds the wiki the first one found: the same set of related pages.
    for (const note of NOTES) {
      const report = await ingestNote({ vault, provider: providerFor(protocol, server, { settings, model }), settings, retriever }, { notePath: note.path, dryRun: true });
      expect(report.error).toBeNull();
    }
    const requests = server.modelRequests();
    return { analyses: requests.filter(isAnalysis), generations: requests.filter(isGeneration) };
  }

  it("retrieval ranks the same related pages differently for the two notes", async () => {
    const vault = new MemoryVault(WIKI);
    const contextOf = (note: (typeof NOTES)[number]) =>
      buildIngestContext({ retriever: wordOverlapRetriever(vault), noteText: note.text, notePath: note.path, wikiFolder: "wiki", budgetTokens: 20_000, shareable: async () => true, pageCount: 5 });
    const [a, b] = await Promise.all(NOTES.map(contextOf));
    // The premise of the test below: one set, two rankings.
    expect(new Set(a!.candidates)).toEqual(new Set(b!.candidates));
    expect(a!.candidates.length).toBeGreaterThanOrEqual(3);
    expect(a!.candidates).not.toEqual(b!.candidates);
    expect(a!.retrievalContext).toBe(b!.retrievalContext);
  });

  it("sends a user message that is byte-identical up to the note's own part", async () => {
    const { analyses, generations } = await ingestBoth();
    expect(analyses).toHaveLength(2);
    expect(generations).toHaveLength(2);
    const upTo = (text: string, marker: string) => {
      expect(text).toContain(marker);
      return text.slice(0, text.indexOf(marker));
    };
    const [genA, genB] = generations.map((r) => userText(protocol, r.body));
    const sharedGen = upTo(genA!, "For this note:");
    expect(sharedGen).toBe(upTo(genB!, "For this note:"));
    // The shared part is the wiki's context, every related page quoted, and none of either note.
    for (const title of ["Tomato blight", "Staking tomatoes", "Compost", "Éclaircissage"]) expect(sharedGen).toContain(`### [[${title}]]`);
    for (const note of NOTES) expect(sharedGen).not.toContain(note.path);
    const [anA, anB] = analyses.map((r) => userText(protocol, r.body));
    expect(upTo(anA!, "Source note")).toBe(upTo(anB!, "Source note"));
    expect(upTo(anA!, "Source note")).toContain("Staking tomatoes");
  });

  it.runIf(protocol === "anthropic")("marks only text that repeats across notes", async () => {
    const { analyses, generations } = await ingestBoth();
    const [firstNote, secondNote] = [0, 1].map((i) => [analyses[i]!, generations[i]!]);
    const markedFirst = firstNote!.flatMap((r) => markedTexts(r.body));
    const markedSecond = secondNote!.flatMap((r) => markedTexts(r.body));
    // The first note's texts: a mark on the second note's requests must be on text the first one sent.
    const sentFirst = firstNote!.flatMap((r) => [userText(protocol, r.body), JSON.stringify((r.body as { system: unknown }).system)]);
    // What passes Sonnet 4.5's 1,024 tokens here: the page-writing prompt up to the wiki's context.
    expect(markedSecond.length).toBeGreaterThanOrEqual(1);
    for (const text of markedSecond) expect(sentFirst.some((sent) => sent.startsWith(text) || sent.includes(JSON.stringify(text).slice(1, -1)))).toBe(true);
    for (const text of [...markedFirst, ...markedSecond]) {
      // Never the note, its path or its rules: text read once is not worth a mark.
      for (const note of NOTES) expect(text).not.toContain(note.path);
      expect(text).not.toContain("For this note:");
    }
    // The generate request's user message: the wiki's context marked, the note's part after it unmarked.
    const user = (generations[1]!.body as { messages: { content: Block[] }[] }).messages[0]!.content;
    expect(user).toHaveLength(2);
    expect(user[0]!.cache_control).toEqual({ type: "ephemeral" });
    expect(user[0]!.text.startsWith("Related wiki content and notes:")).toBe(true);
    expect(user[1]!).not.toHaveProperty("cache_control");
    expect(user[1]!.text).toContain(NOTES[1]!.text.trim());
  });
});
