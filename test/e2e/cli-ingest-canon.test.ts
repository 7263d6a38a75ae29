/**
 * The user's notes are the canon, through the built CLI and the Offline provider: a vault with a
 * note `Jet Stream.md` and a note that mentions the jet stream gets no `Jet Stream (entity).md`
 * (the default links to the note), and with `userNoteCanon: "page"` a page that links to it.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli";
import { makeVault } from "../helpers/temp-vault";

const JET = "notes/Jet Stream.md";
const WEATHER = "notes/Weather.md";
const files = (extra: Record<string, string> = {}) => ({
  [JET]: "# Jet Stream\n\nMy own notes on the fast winds high above us.\n",
  [WEATHER]: "# Weather\n\nStorms over the Atlantic follow the [[Jet Stream]], which moves north in summer.\n",
  ...extra,
});
interface Report {
  pages: { path: string; title: string; action: string; detail?: string }[];
  linkedNotes: { title: string; note: string; sentence: string }[];
}
const wikiFiles = (vault: string) => (existsSync(join(vault, "wiki")) ? (readdirSync(join(vault, "wiki"), { recursive: true, encoding: "utf8" })) : []);

describe("synapse ingest links to the user's note instead of duplicating it (offline provider)", () => {
  it("by default writes no page for the jet stream and names the note in the result", async () => {
    const vault = makeVault(files());
    const run = await runCli(["ingest", WEATHER, "--vault", vault, "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as Report;
    expect(wikiFiles(vault).filter((p) => p.includes("Jet Stream"))).toEqual([]);
    expect(report.linkedNotes).toEqual([{ title: "Jet Stream", note: JET, sentence: "Linked to your note [[Jet Stream]] instead of writing a page." }]);
    const human = await runCli(["ingest", WEATHER, "--vault", makeVault(files())]);
    expect(human.stdout).toContain("Linked to your note [[Jet Stream]] instead of writing a page.");
  });

  it("with the setting \"page\" writes the page under another name, with a line linking to the note", async () => {
    const vault = makeVault(files({ ".obsidian/plugins/synapse/data.json": JSON.stringify({ version: 1, userNoteCanon: "page" }) }));
    const run = await runCli(["ingest", WEATHER, "--vault", vault, "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as Report;
    const page = report.pages.find((p) => p.title === "Jet Stream");
    expect(page).toMatchObject({ path: "wiki/entities/Jet Stream (entity).md", action: "created", detail: "The page links to your note [[Jet Stream]]." });
    expect(readFileSync(join(vault, page?.path ?? ""), "utf8")).toContain("[[notes/Jet Stream|Jet Stream]]");
    expect(report.linkedNotes).toEqual([]);
  });

  it("a note about World War I does not absorb a new World War II page", async () => {
    const vault = makeVault({
      "notes/World War I.md": "# World War I\n\nThe Great War, 1914 to 1918.\n",
      [WEATHER]: "# Weather\n\nThe winters of [[World War II]] were hard.\n",
    });
    const run = await runCli(["ingest", WEATHER, "--vault", vault, "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.linkedNotes).toEqual([]);
    expect(report.pages).toEqual(expect.arrayContaining([expect.objectContaining({ title: "World War II", action: "created" })]));
  });
});
