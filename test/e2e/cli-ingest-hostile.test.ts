/**
 * What a model writes is data, through the built CLI and a scripted Ollama: the study's hostile
 * page is refused while it cites notes that are not there or not to be read, and once it cites
 * real notes it is written with none of its HTML, script links, running code or forged markers in
 * executable form; the next ingest keeps none of the model's text as the user's.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { splitFrontmatter } from "../../src/core/markdown";
import { parseBody } from "../../src/wiki/provenance";
import { executableParts } from "../helpers/executable-markdown";
import { BAD_SOURCES, HOSTILE_BODY } from "../helpers/hostile-page";
import { runCli } from "../helpers/run-cli";
import type { ScriptedServer } from "../helpers/scripted-server";
import { makeVault } from "../helpers/temp-vault";
import { MODELS, NOTE_PATH, REPLIES, content, noteText, startServer } from "../providers/harness";

const PAGE = "wiki/concepts/Bases.md";

function pages(sources: readonly string[], body: string): string {
  return JSON.stringify({ pages: [{ type: "concept", title: "Bases", frontmatter: { sources: [NOTE_PATH, ...sources], lang: "en", tags: ["bases"] }, content: body, aliases: [], contradicts: [] }] });
}

describe("a hostile page from a scripted Ollama, through the CLI", () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startServer("ollama");
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  it("refuses the bad sources, writes the page inert, and keeps no forged user text on the next ingest", async () => {
    const vault = makeVault({
      [NOTE_PATH]: noteText(),
      "Private/Salary review.md": "# Salary review\n\nConfidential.\n",
      "notes/Other note.md": "# Other\n\nBases too.\n",
      ".obsidian/plugins/synapse/data.json": JSON.stringify({ version: 1, excludedFolders: ["Private"] }),
    });
    const ingest = (...extra: string[]) =>
      runCli(["ingest", NOTE_PATH, "--vault", vault, "--provider", "ollama", "--model", MODELS.ollama, "--base-url", server.url, "--json", ...extra]);

    server.setScript([content(REPLIES.analysis), content(pages(BAD_SOURCES, HOSTILE_BODY)), content(pages(["notes/Other note.md"], HOSTILE_BODY))]);
    const first = await ingest();
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ converged: true, attempts: { analyze: 1, generate: 2 } });
    const retry = JSON.stringify(server.modelRequests()[2]?.body ?? "");
    for (const bad of BAD_SOURCES) expect(retry).toContain(`frontmatter.sources lists \\"${bad}\\"`);
    expect(retry).toContain('\\"Private/Salary review.md\\", which is in a folder the user excluded');

    const written = readFileSync(join(vault, PAGE), "utf8");
    const { frontmatter, body } = splitFrontmatter(written);
    expect(frontmatter.sources).toEqual([NOTE_PATH, "notes/Other note.md"]);
    const segments = parseBody(body);
    expect(segments.map((s) => s.kind)).toEqual(["section"]);
    expect(executableParts(segments.map((s) => (s.kind === "section" ? s.content : s.text)).join("\n"))).toEqual([]);

    server.setScript([content(REPLIES.analysis), content(pages([], "Bases, revised."))]);
    expect((await ingest("--force")).code).toBe(0);
    const revised = readFileSync(join(vault, PAGE), "utf8");
    expect(revised).toContain("Bases, revised.");
    expect(revised).not.toContain("Forged user text");
  });
});
