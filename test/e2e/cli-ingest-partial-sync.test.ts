/**
 * `synapse ingest` checks for changes only where the ingest reads — the wiki folder (retrieval's
 * scope, the page count, the names of pages) and the note being ingested — and lists the rest of
 * the vault by name only, reading just the notes the index has never seen (their names are what
 * the link and file-name checks need). Counted in process through the file-system vault's own
 * methods (every NodeVault the command builds), against a scripted OpenAI-compatible server.
 * A wiki page edited by hand since the last index is retrieved by its new words; a user note
 * changed meanwhile is neither statted nor read, and the next `synapse search` catches up with it.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { runIngestCommand } from "../../src/cli/ingest-command";
import { NodeVault } from "../../src/vault/node-vault";
import { content, promptSent } from "../providers/harness";
import { runCli } from "../helpers/run-cli";
import { startScriptedServer, type RecordedRequest, type Reply, type ScriptedServer } from "../helpers/scripted-server";
import { makeVault } from "../helpers/temp-vault";

const NOTE_PATH = "inbox/Zettelkasten.md";
const NOTE = `# Zettelkasten

A Zettelkasten keeps atomic notes on index cards. Niklas Luhmann gave every card a unique identifier
and linked cards to one another, so that his index cards became a partner in thinking.
`;
const page = (title: string, body: string) => `---\ntype: concept\ntitle: ${title}\nsources:\n  - notes/Old.md\nlang: en\n---\n${body}\n`;
const SLIP_BOX = "wiki/concepts/Slip-box method.md";
const USER_NOTES = 40;

function files(): Record<string, string> {
  const out: Record<string, string> = {
    [NOTE_PATH]: NOTE,
    ".obsidian/plugins/synapse/data.json": JSON.stringify({ excludedFolders: ["private"] }),
    // Indexed about furniture; edited by hand before the ingest to the subject of the note.
    [SLIP_BOX]: page("Slip-box method", "A wooden box with drawers, made of oak, stands in the study."),
    "wiki/concepts/Sourdough baking.md": page("Sourdough baking", "Sourdough rises with a starter of wild yeast."),
    "private/Diary.md": "# Diary\n\nSee [[Slip-box method]].\n",
    "notes/Old.md": "An old note.",
  };
  for (let i = 0; i < USER_NOTES; i++) out[`notes/sub${i % 4}/Note ${i}.md`] = `# Note ${i}\n\nGardening: tomatoes, basil and compost number ${i}.\n`;
  return out;
}

const ANALYSIS = {
  title: "Zettelkasten",
  language: "en",
  summary: "Atomic, linked notes on index cards, as Niklas Luhmann kept them.",
  topics: ["note-taking"],
  entities: [],
  concepts: [{ name: "Zettelkasten", description: "Atomic linked notes on index cards." }],
};

function scriptedModel(request: RecordedRequest): Reply {
  const prompt = promptSent(request.body);
  if (prompt.includes("You analyse one source note")) return content(JSON.stringify(ANALYSIS));
  const pages = [{ type: "concept", title: "Zettelkasten", frontmatter: { sources: [NOTE_PATH], lang: "en" }, content: "Cards link to one another by their identifier." }];
  return content(JSON.stringify({ pages }));
}

/** Every vault path the command's NodeVaults statted or read, and every folder they listed (the spies call through). */
function countVaultCalls() {
  const spies = (["stat", "read", "readBytes", "readWithStat"] as const).map((method) => vi.spyOn(NodeVault.prototype, method));
  const list = vi.spyOn(NodeVault.prototype, "list");
  return {
    touched: () => spies.flatMap((spy) => spy.mock.calls.map((call) => call[0])),
    listed: () => list.mock.calls.map((call) => call[0]),
  };
}

describe("synapse ingest syncs only the wiki and its note", () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedServer({ protocol: "openai", script: scriptedModel, models: [{ name: "gpt-4.1-mini" }] });
  });
  afterAll(() => server.close());
  afterEach(() => vi.restoreAllMocks());

  it("reads fresh wiki pages, never stats or reads the notes it knows outside them, and leaves those to the next full sync", async () => {
    const vault = makeVault(files());
    const built = await runCli(["index", "--vault", vault, "--json"]);
    expect(built.code, built.stderr).toBe(0);

    // Edited by hand after the index was built.
    writeFileSync(join(vault, SLIP_BOX), page("Slip-box method", "The slip-box keeps atomic notes on index cards, each with a unique identifier; Niklas Luhmann wrote about seventy books with it."));
    writeFileSync(join(vault, "notes/sub1/Note 1.md"), "# Note 1\n\nQuokkas live on Rottnest Island.\n");
    writeFileSync(join(vault, "notes/New idea.md"), "# New idea\n\nWritten after the index was built.\n");

    const calls = countVaultCalls();
    const out: string[] = [];
    const err: string[] = [];
    const code = await runIngestCommand(
      [NOTE_PATH, "--vault", vault, "--provider", "openai", "--model", "gpt-4.1-mini", "--base-url", `${server.url}/v1`, "--json"],
      { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: { OPENAI_API_KEY: "sk-test-key" }, cwd: vault },
    );
    expect(code, err.join("")).toBe(0);

    // The hand-edited page is found by its new words (the index's old entry was about oak boxes).
    const generate = promptSent(server.modelRequests()[1]?.body);
    expect(generate).toContain("Niklas Luhmann wrote about seventy books");
    expect(generate).not.toContain("wooden box");

    // Outside the wiki and the note, only the note the index had never seen was read; the vault
    // was listed by name (no stat) so its set of notes is exact.
    const outside = calls.touched().filter((p) => !p.startsWith("wiki/") && p !== NOTE_PATH);
    expect(outside).toEqual(["notes/New idea.md"]);
    expect(calls.listed()).toContain("");

    // The next full sync catches up with the user's note.
    const search = await runCli(["search", "quokkas rottnest", "--vault", vault, "--json"]);
    expect(search.code, search.stderr).toBe(0);
    expect((JSON.parse(search.stdout) as { results: { path: string }[] }).results.map((r) => r.path)).toContain("notes/sub1/Note 1.md");
  });
});
