/**
 * Ingest with retrieval, end to end through the real OpenAI-compatible adapter and a scripted server
 * on 127.0.0.1: the wiki page related to the note by content (not by title) is in the prompt the
 * server received, unrelated pages and pages drawn from excluded notes are not, and a model that
 * reuses the title it sees in context updates that page instead of writing a duplicate.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryRunLogger } from "../../src/core/log";
import { mentionedTitles } from "../../src/wiki/ingest/related-pages";
import { SettingsSchema } from "../../src/settings/schema";
import { NodeVault } from "../../src/vault/node-vault";
import { ingestNote } from "../../src/wiki/ingest-note";
import { content, promptSent, providerFor, settingsFor } from "../providers/harness";
import { startScriptedServer, type RecordedRequest, type Reply, type ScriptedServer } from "../helpers/scripted-server";
import { makeVault, readVaultFile } from "../helpers/temp-vault";
import { wordOverlapRetriever } from "../helpers/word-overlap-retriever";

const NOTE_PATH = "notes/Zettelkasten.md";
const NOTE = `# Zettelkasten

A Zettelkasten keeps atomic notes on index cards. Niklas Luhmann gave every card a unique identifier
and linked cards to one another, so that his index cards became a partner in thinking.

## Linking cards

Each card links to related cards by their identifier; the links, not the folders, hold the structure.
`;

const page = (type: string, title: string, sources: string[], body: string) =>
  `---\ntype: ${type}\ntitle: ${title}\nsources:\n${sources.map((s) => `  - ${s}`).join("\n")}\nlang: en\n---\n${body}\n`;

const WIKI = {
  "wiki/concepts/Slip-box method.md": page(
    "concept",
    "Slip-box method",
    ["notes/Luhmann.md"],
    "The slip-box method keeps atomic notes on index cards, each with a unique identifier, linked to one another. Niklas Luhmann wrote about seventy books with his slip-box of some 90,000 cards.",
  ),
  "wiki/concepts/Sourdough baking.md": page("concept", "Sourdough baking", ["notes/Bread.md"], "Sourdough rises with a starter of wild yeast; flour, water and a long fermentation give bread its sour taste."),
  "wiki/entities/Kubernetes.md": page("entity", "Kubernetes", ["notes/Ops.md"], "Kubernetes schedules containers on a cluster of machines; pods, services and deployments describe the workload."),
  "wiki/concepts/Card index diary.md": page(
    "concept",
    "Card index diary",
    ['"[[private/Diary]]"'],
    "My private diary on index cards: atomic notes, each card with a unique identifier, linked to one another like Luhmann's.",
  ),
  "notes/Luhmann.md": "Old note.",
  "private/Diary.md": "Secret.",
};

const ANALYSIS = {
  title: "Zettelkasten",
  language: "en",
  summary: "A Zettelkasten keeps atomic, linked notes on index cards with unique identifiers, as Niklas Luhmann did.",
  topics: ["note-taking"],
  entities: [{ name: "Niklas Luhmann", kind: "person", description: "A sociologist who kept a card index." }],
  concepts: [{ name: "Zettelkasten", description: "Atomic linked notes on index cards." }],
};

/**
 * Like a real model: when the context shows a page on the same subject (a block about index cards),
 * it writes its update under that page's exact title; otherwise it names the concept itself.
 */
function scriptedModel(request: RecordedRequest): Reply {
  const prompt = promptSent(request.body);
  if (prompt.includes("You analyse one source note")) return content(JSON.stringify(ANALYSIS));
  const blocks = [...prompt.matchAll(/### \[\[([^\]]+)\]\][^\n]*\n([\s\S]*?)(?=\n### |$)/g)];
  const sameSubject = blocks.find((b) => /index cards/i.test(b[2] ?? ""))?.[1];
  const title = sameSubject ?? "Zettelkasten";
  const pages = [
    { type: "source", title: "Notes on Zettelkasten", frontmatter: { sources: [NOTE_PATH], lang: "en", tags: ["pkm"] }, content: `A note on [[${title}]].` },
    { type: "concept", title, frontmatter: { sources: [NOTE_PATH], lang: "en", tags: ["pkm"] }, content: "Cards link to related cards by their identifier; the links hold the structure." },
  ];
  return content(JSON.stringify({ pages }));
}

describe("ingest puts the wiki pages related by content into the prompt", () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedServer({ protocol: "openai", script: scriptedModel, models: [{ name: "gpt-4.1-mini" }] });
  });
  afterAll(() => server.close());

  it("quotes the related page, leaves unrelated and excluded-source pages out, and updates the page under its own title", async () => {
    const root = makeVault({ [NOTE_PATH]: NOTE, ...WIKI });
    const vault = new NodeVault(root);
    const settings = SettingsSchema.parse({ ...settingsFor("openai", server.url), excludedFolders: ["private"] });
    const retriever = wordOverlapRetriever(vault);
    const log = new MemoryRunLogger();
    // No title of the wiki occurs in the note: title matching would find nothing.
    expect(mentionedTitles(NOTE, ["Slip-box method", "Sourdough baking", "Kubernetes", "Card index diary"])).toEqual([]);

    const report = await ingestNote({ vault, provider: providerFor("openai", server, { settings }), settings, retriever }, { notePath: NOTE_PATH, log });

    expect(report.error).toBeNull();
    const [analyze, generate] = server.modelRequests().map((r) => promptSent(r.body));
    expect(analyze).toContain("Slip-box method");
    expect(generate).toContain("Niklas Luhmann wrote about seventy books");
    for (const prompt of [analyze, generate]) {
      expect(prompt).not.toContain("Sourdough");
      expect(prompt).not.toContain("Kubernetes");
      // Related by content, but drawn from a note in an excluded folder: never quoted, never named.
      expect(prompt).not.toContain("Card index diary");
      expect(prompt).not.toContain("private diary");
    }
    // The page carries no Synapse fingerprint, so it counts as the user's: the update is appended.
    expect(report.pages).toContainEqual({ path: "wiki/concepts/Slip-box method.md", type: "concept", title: "Slip-box method", action: "merged" });
    expect(report.pages.map((p) => p.path)).not.toContain("wiki/concepts/Zettelkasten.md");
    expect(readVaultFile(root, "wiki/concepts/Slip-box method.md")).toContain("the links hold the structure");
    expect(log.contexts[0]?.included.map((i) => i.path)).toEqual(["wiki/concepts/Slip-box method.md"]);
  });

  it("without the related page in context, the same model writes a duplicate", async () => {
    // The control: the old title-matching context never shows "Slip-box method" to the model.
    const root = makeVault({ [NOTE_PATH]: NOTE, ...WIKI });
    const vault = new NodeVault(root);
    const settings = settingsFor("openai", server.url);
    server.reset();
    const report = await ingestNote({ vault, provider: providerFor("openai", server, { settings }), settings }, { notePath: NOTE_PATH });
    expect(report.error).toBeNull();
    expect(report.pages).toContainEqual(expect.objectContaining({ type: "concept", title: "Zettelkasten", action: "created" }));
    expect(report.pages.map((p) => p.path)).not.toContain("wiki/concepts/Slip-box method.md");
  });
});
