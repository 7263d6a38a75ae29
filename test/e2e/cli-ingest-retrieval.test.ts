/**
 * The built CLI ingests with the vault's real search index (BM25 + graph, persisted in the state
 * folder) against a scripted OpenAI-compatible server: the wiki page related to the note by
 * content — not by title, the note never names it — is quoted in the prompt, unrelated pages are
 * not, and a model that writes under the title it was shown updates that page instead of creating
 * a duplicate. The pages written are in the index at once: `synapse search` finds the new text.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mentionedTitles } from "../../src/wiki/ingest/related-pages";
import { content, promptSent } from "../providers/harness";
import { runCli } from "../helpers/run-cli";
import { startScriptedServer, type RecordedRequest, type Reply, type ScriptedServer } from "../helpers/scripted-server";
import { makeVault, readVaultFile, snapshot } from "../helpers/temp-vault";

const NOTE_PATH = "notes/Zettelkasten.md";
const NOTE = `# Zettelkasten

A Zettelkasten keeps atomic notes on index cards. Niklas Luhmann gave every card a unique identifier
and linked cards to one another, so that his index cards became a partner in thinking.

## Linking cards

Each card links to related cards by their identifier; the links, not the folders, hold the structure.
`;

const page = (type: string, title: string, body: string) => `---\ntype: ${type}\ntitle: ${title}\nsources:\n  - notes/Old.md\nlang: en\n---\n${body}\n`;

const SLIP_BOX = "wiki/concepts/Slip-box method.md";
const FILES = {
  [NOTE_PATH]: NOTE,
  [SLIP_BOX]: page(
    "concept",
    "Slip-box method",
    "The slip-box method keeps atomic notes on index cards, each with a unique identifier, linked to one another. Niklas Luhmann wrote about seventy books with his slip-box of some 90,000 cards.",
  ),
  "wiki/concepts/Sourdough baking.md": page("concept", "Sourdough baking", "Sourdough rises with a starter of wild yeast; flour, water and a long fermentation give bread its sour taste."),
  "wiki/entities/Kubernetes.md": page("entity", "Kubernetes", "Kubernetes schedules containers on a cluster of machines; pods, services and deployments describe the workload."),
  "notes/Old.md": "An old note.",
  "notes/Bread.md": "# Bread\n\nMy sourdough starter needs feeding twice a day.\n",
};

const ANALYSIS = {
  title: "Zettelkasten",
  language: "en",
  summary: "A Zettelkasten keeps atomic, linked notes on index cards with unique identifiers, as Niklas Luhmann did.",
  topics: ["note-taking"],
  entities: [],
  concepts: [{ name: "Zettelkasten", description: "Atomic linked notes on index cards." }],
};

/**
 * Like a real model: when the context quotes a page on the same subject (a block about index
 * cards), it writes its update under that page's exact title; otherwise it names the concept itself.
 */
function scriptedModel(request: RecordedRequest): Reply {
  const prompt = promptSent(request.body);
  if (prompt.includes("You analyse one source note")) return content(JSON.stringify(ANALYSIS));
  const blocks = [...prompt.matchAll(/### \[\[([^\]]+)\]\][^\n]*\n([\s\S]*?)(?=\n### |$)/g)];
  const sameSubject = blocks.find((b) => /index cards/i.test(b[2] ?? ""))?.[1];
  const title = sameSubject ?? "Zettelkasten";
  const pages = [
    { type: "concept", title, frontmatter: { sources: [NOTE_PATH], lang: "en", tags: ["pkm"] }, content: "Cards link to related cards by their identifier; the hyperlinked graph holds the structure." },
  ];
  return content(JSON.stringify({ pages }));
}

interface Report {
  converged: boolean;
  pages: { path: string; title: string; action: string }[];
  error: unknown;
}

describe("synapse ingest with the vault's search index (built CLI, scripted server)", () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedServer({ protocol: "openai", script: scriptedModel, models: [{ name: "gpt-4.1-mini" }] });
  });
  afterAll(() => server.close());

  it("quotes the page related by content, leaves unrelated pages out, and updates that page instead of writing a duplicate", async () => {
    // No title of the wiki occurs in the note: title matching would find nothing.
    expect(mentionedTitles(NOTE, ["Slip-box method", "Sourdough baking", "Kubernetes"])).toEqual([]);
    const vault = makeVault(FILES);
    const run = await runCli(
      ["ingest", NOTE_PATH, "--vault", vault, "--provider", "openai", "--model", "gpt-4.1-mini", "--base-url", `${server.url}/v1`, "--verbose"],
      { env: { OPENAI_API_KEY: "sk-test-key" } },
    );
    expect(run.code, run.stderr).toBe(0);

    const [analyze, generate] = server.modelRequests().map((r) => promptSent(r.body));
    expect(analyze).toContain("Slip-box method");
    expect(generate).toContain("Niklas Luhmann wrote about seventy books");
    for (const prompt of [analyze, generate]) {
      expect(prompt).not.toMatch(/sourdough/i);
      expect(prompt).not.toContain("Kubernetes");
    }
    // The run log (printed by --verbose) names what went into the context.
    expect(run.stderr).toContain(`quoted ${SLIP_BOX}`);
    expect(run.stderr).not.toContain("left out");

    // The page the note is about, under its other name, got the note's material; no duplicate.
    const files = snapshot(vault);
    expect(files[SLIP_BOX]).toContain("the hyperlinked graph holds the structure");
    expect(Object.keys(files).filter((p) => p.startsWith("wiki/") && /Zettelkasten/.test(p))).toEqual([]);
    expect(readVaultFile(vault, "wiki/log.md")).toContain("Slip-box method");

    // The index was updated with what the ingest wrote: a search finds the new sentence.
    const search = await runCli(["search", "hyperlinked graph", "--vault", vault, "--json"]);
    expect(search.code, search.stderr).toBe(0);
    const found = JSON.parse(search.stdout) as { results: { path: string }[] };
    expect(found.results.map((r) => r.path)[0]).toBe(SLIP_BOX);
  });

  it("a dry run retrieves the same context and writes nothing, not even the index", async () => {
    server.reset();
    const vault = makeVault(FILES);
    const before = snapshot(vault);
    const run = await runCli(
      ["ingest", NOTE_PATH, "--vault", vault, "--provider", "openai", "--model", "gpt-4.1-mini", "--base-url", `${server.url}/v1`, "--dry-run", "--json"],
      { env: { OPENAI_API_KEY: "sk-test-key" } },
    );
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.pages.map((p) => `${p.action} ${p.path}`)).toEqual([`merged ${SLIP_BOX}`]);
    expect(promptSent(server.modelRequests()[1]?.body)).toContain("Niklas Luhmann wrote about seventy books");
    expect(snapshot(vault)).toEqual(before);
  });
});
