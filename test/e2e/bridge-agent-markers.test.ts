/**
 * The agent never sees Synapse's bookkeeping, and what it writes still lands in the right section.
 * A wiki is written by real Offline ingests (so its pages carry the very markers and attribution
 * lines Synapse writes), the user adds a line of their own to a page, and then the real Claude Agent
 * SDK, run by the bridge against a scripted Messages API, ingests a third note by reading that page
 * in its staging copy and editing it. Nothing the model was sent holds a marker; on disk, after the
 * write path, every source section the page had is still marked and unchanged, the new note has a
 * marked section of its own holding what the agent added, and the user's line is where it was. On
 * the note's next ingest, what the agent rewrote in that part revises the note's section in place.
 *
 * The checks are this file's own patterns, not the stripping under test.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startBridgeServer } from "../../src/bridge/server";
import { splitFrontmatter } from "../../src/core/markdown";
import { createCliProvider } from "../../src/providers/cli";
import { OfflineProvider } from "../../src/providers/offline/offline-provider";
import { DEFAULT_SETTINGS, type Settings } from "../../src/settings/schema";
import type { InferenceProvider } from "../../src/core/provider";
import { NodeVault } from "../../src/vault/node-vault";
import { ingestNote } from "../../src/wiki/ingest-note";
import { isUnedited, parseBody, type SourceSection } from "../../src/wiki/provenance";
import { bridgeEnv, tempHome } from "../helpers/bridge-fixtures";
import { startScriptedMessagesApi, textTurn, toolTurn, type ScriptedTurn } from "../helpers/scripted-messages-api";
import { makeVault } from "../helpers/temp-vault";

const TOKEN = "test-token-0123456789abcdef";
const NOW = () => Date.UTC(2026, 11, 3, 12, 0);
const NOTES = {
  "notes/Ada.md": "# Ada Lovelace\n\nAda Lovelace wrote the first program for the Analytical Engine in 1843.\n\n## Notes\n\nHer notes on the Analytical Engine described how to compute Bernoulli numbers.\n",
  "notes/Engine.md": "# Analytical Engine\n\nThe Analytical Engine was a mechanical computer designed by Charles Babbage. Ada Lovelace wrote about the Analytical Engine.\n\n## Design\n\nThe Analytical Engine had a mill and a store.\n",
  "notes/Mill.md": "# The mill\n\nThe mill of the Analytical Engine did the arithmetic; the store held the numbers it worked on.\n",
};
const MILL = "notes/Mill.md";
const PAGE = "wiki/entities/Analytical Engine.md";
const ASIDE = "My own aside: the Science Museum in London shows a part of it.";
const ADDED = "## The mill\n\nThe mill of the Analytical Engine did the arithmetic; the store held the numbers.";
/** Words of the Offline page: proof that the agent really read it. */
const PAGE_WORDS = "mechanical computer designed by Charles Babbage";

const MARKER = /%%\s*\/?synapse/i;
const ATTRIBUTION = /\*From \[\[/;

function settings(): Settings {
  return { ...structuredClone(DEFAULT_SETTINGS), wikiFolder: "wiki" };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

function sections(text: string): SourceSection[] {
  return parseBody(splitFrontmatter(text).body).filter((s): s is SourceSection => s.kind === "section");
}

/** An Offline wiki of two notes, a line of the user's on the Analytical Engine page, and a bridge running the scripted agent. */
async function wikiAndAgent(script: readonly ScriptedTurn[]) {
  const root = makeVault(NOTES);
  const ingest = (provider: InferenceProvider, notePath: string, force = false) =>
    ingestNote({ vault: new NodeVault(root), provider, settings: settings(), now: NOW }, { notePath, ...(force ? { force } : {}) });
  for (const notePath of ["notes/Ada.md", "notes/Engine.md"]) expect((await ingest(new OfflineProvider(), notePath)).error).toBeNull();
  const file = join(root, ...PAGE.split("/"));
  writeFileSync(file, `${readFileSync(file, "utf8").trimEnd()}\n\n${ASIDE}\n`);
  const home = tempHome();
  const api = await startScriptedMessagesApi(script);
  const bridge = await startBridgeServer({ vaults: [root], token: TOKEN, port: 0, version: "test", env: bridgeEnv(api.url, home.path) });
  cleanups.push(home.dispose, () => api.close(), () => bridge.close());
  const agent = createCliProvider({ bridgeUrl: bridge.url, token: () => TOKEN, fetch: globalThis.fetch, maxTurns: 10, maxBudgetUsd: 1, wikiFolder: "wiki", vaultPath: root });
  return { api, agent, ingest, read: () => readFileSync(file, "utf8") };
}

/** The agent reads the note and the page, adds the note to the page's sources and a part of its own below the user's line. */
const ADD_TO_PAGE: readonly ScriptedTurn[] = [
  toolTurn("Read", { file_path: MILL }),
  toolTurn("Read", { file_path: PAGE }),
  toolTurn("Edit", { file_path: PAGE, old_string: "  - notes/Engine.md\n", new_string: `  - notes/Engine.md\n  - ${MILL}\n` }),
  toolTurn("Edit", { file_path: PAGE, old_string: ASIDE, new_string: `${ASIDE}\n\n${ADDED}` }),
  textTurn(`Updated ${PAGE}.`),
];

/** The user's text of a page: what lies outside every section. */
function userText(text: string): string[] {
  return parseBody(splitFrontmatter(text).body).flatMap((s) => (s.kind === "text" ? [s.text] : []));
}

describe("an agent's edit of a page, through the bridge and the write path", () => {
  it("sees no marker, and the page keeps every source's section, gains the note's own, and keeps the user's text", async () => {
    const { api, agent, ingest, read } = await wikiAndAgent(ADD_TO_PAGE);
    const before = read();
    const had = sections(before);
    expect(had.map((s) => s.source)).toEqual(["notes/Ada.md", "notes/Engine.md"]);

    const report = await ingest(agent, MILL);

    expect(report.error).toBeNull();
    expect(report.converged).toBe(true);
    expect(report.pages.map((p) => [p.path, p.action])).toEqual([[PAGE, "merged"]]);

    // Everything the model was sent — the prompts and what its Read calls returned.
    const sent = api.agentRequests().map((r) => JSON.stringify(r.body));
    expect(sent.join("\n")).toContain(PAGE_WORDS);
    expect(sent.join("\n")).toContain(ASIDE);
    sent.forEach((body, i) => {
      expect(MARKER.test(body), `the model's request ${i} holds a source marker`).toBe(false);
      expect(ATTRIBUTION.test(body), `the model's request ${i} holds an attribution line`).toBe(false);
    });

    const after = read();
    const now = sections(after);
    // Every section the page had is still there, marked, byte for byte; the note has one of its own.
    expect(now.map((s) => s.source)).toEqual(["notes/Ada.md", "notes/Engine.md", MILL]);
    expect(now.slice(0, 2)).toEqual(had);
    const mine = now[2];
    expect(mine && isUnedited(mine)).toBe(true);
    expect(mine?.content).toBe(`*From [[notes/Mill|Mill]]*\n\n${ADDED}`);
    // The user's line is kept once, outside every section; no text is doubled, no marker escaped.
    expect(userText(after)).toEqual([ASIDE]);
    expect(after.split(PAGE_WORDS)).toHaveLength(2);
    expect(after).not.toContain("\\%");
    const { frontmatter } = splitFrontmatter(after);
    expect(frontmatter.sources).toEqual(["notes/Ada.md", "notes/Engine.md", MILL]);
    expect(frontmatter.synapse_id).toBe(splitFrontmatter(before).frontmatter.synapse_id);
  });

  it("on the note's next ingest, its own section is revised in place by what the agent rewrote", async () => {
    const REWORDED = ADDED.replace("did the arithmetic", "did all of the arithmetic");
    const { agent, ingest, read } = await wikiAndAgent([
      ...ADD_TO_PAGE,
      toolTurn("Read", { file_path: PAGE }),
      toolTurn("Edit", { file_path: PAGE, old_string: "did the arithmetic", new_string: "did all of the arithmetic" }),
      textTurn(`Updated ${PAGE}.`),
    ]);
    expect((await ingest(agent, MILL)).error).toBeNull();
    const first = sections(read());

    const report = await ingest(agent, MILL, true);

    expect(report.error).toBeNull();
    expect(report.pages.map((p) => [p.path, p.action])).toEqual([[PAGE, "updated"]]);
    const after = read();
    const now = sections(after);
    expect(now.map((s) => s.source)).toEqual(["notes/Ada.md", "notes/Engine.md", MILL]);
    expect(now.slice(0, 2)).toEqual(first.slice(0, 2));
    expect(now[2]?.content).toBe(`*From [[notes/Mill|Mill]]*\n\n${REWORDED}`);
    expect(now[2] && isUnedited(now[2])).toBe(true);
    expect(after).not.toContain("did the arithmetic");
    expect(userText(after)).toEqual([ASIDE]);
  });
});
