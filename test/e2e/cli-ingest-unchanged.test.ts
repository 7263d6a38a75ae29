/**
 * Skip what has not changed, through the built CLI: a note ingested once is "already up to date"
 * the second time — no provider call (counted on a scripted server), no file rewritten (mtimes) —
 * until its text changes or --force is given; a moved note is recognised by its content.
 */
import { existsSync, renameSync, rmSync, statSync, writeFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { recordedNotes } from "../helpers/registry-on-disk";
import { runCli } from "../helpers/run-cli";
import type { ScriptedServer } from "../helpers/scripted-server";
import { makeVault, snapshot } from "../helpers/temp-vault";
import { MODELS, NOTE_PATH, VALID, noteText, startServer } from "../providers/harness";

const NOTE = "notes/Ada Lovelace.md";
const TEXT = "# Ada Lovelace\n\nAda Lovelace wrote the first program for the [[Analytical Engine]] of Charles Babbage. Charles Babbage designed it.\n";

/** Every file's modification time, state folder included. */
function mtimes(root: string): Record<string, number> {
  return Object.fromEntries(Object.keys(snapshot(root)).map((p) => [p, statSync(join(root, p)).mtimeMs]));
}

interface JsonReport {
  converged: boolean;
  upToDate: boolean;
  attempts: { analyze: number; generate: number };
  pages: { path: string; action: string }[];
}

describe("synapse ingest skips an unchanged note (offline provider)", () => {
  it("says 'already up to date', exits 0 and rewrites no file on the second run", async () => {
    const vault = makeVault({ [NOTE]: TEXT });
    expect((await runCli(["ingest", NOTE, "--vault", vault])).code).toBe(0);
    const before = mtimes(vault);
    const contents = snapshot(vault);

    const human = await runCli(["ingest", NOTE, "--vault", vault]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^Already up to date: notes\/Ada Lovelace\.md has not changed since it was ingested on \d{4}-\d\d-\d\d \d\d:\d\d UTC\./);
    expect(human.stdout).toContain("--force");
    const json = await runCli(["ingest", NOTE, "--vault", vault, "--json"]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ converged: true, upToDate: true, attempts: { analyze: 0, generate: 0 }, pages: [] });

    expect(mtimes(vault)).toEqual(before);
    expect(snapshot(vault)).toEqual(contents);
  });

  it("ingests again when the note changed, when a page it wrote is gone (without writing that page again), and with --force", async () => {
    const vault = makeVault({ [NOTE]: TEXT });
    await runCli(["ingest", NOTE, "--vault", vault]);
    const again = async (...extra: string[]) => JSON.parse((await runCli(["ingest", NOTE, "--vault", vault, "--json", ...extra])).stdout) as JsonReport;

    expect(await again("--force")).toMatchObject({ upToDate: false, attempts: { analyze: 1 } });
    writeFileSync(join(vault, NOTE), `${TEXT}\nShe also wrote about [[Poetical Science]].\n`);
    expect(await again()).toMatchObject({ upToDate: false, attempts: { analyze: 1 } });
    expect(await again()).toMatchObject({ upToDate: true });

    const log = readFileSync(join(vault, "wiki/log.md"), "utf8");
    writeFileSync(join(vault, "wiki/entities/Charles Babbage.md"), "");
    renameSync(join(vault, "wiki/entities/Charles Babbage.md"), join(vault, "Babbage elsewhere.md"));
    // The user took the page out of the wiki: the note is ingested again, but the page is not
    // written again until they ask for it (--force).
    const kept = await again();
    expect(kept).toMatchObject({ upToDate: false, attempts: { analyze: 1 } });
    expect(kept.pages.map((p) => `${p.action} ${p.path}`)).toContain("unchanged wiki/entities/Charles Babbage.md");
    expect(existsSync(join(vault, "wiki/entities/Charles Babbage.md"))).toBe(false);
    const rebuilt = await again("--force");
    expect(rebuilt.pages.map((p) => `${p.action} ${p.path}`)).toContain("created wiki/entities/Charles Babbage.md");
    expect(readFileSync(join(vault, "wiki/log.md"), "utf8").length).toBeGreaterThan(log.length);
  });

  it("recognises a moved note by its content and records its new path", async () => {
    const vault = makeVault({ [NOTE]: TEXT });
    await runCli(["ingest", NOTE, "--vault", vault]);
    mkdirSync(join(vault, "archive"));
    renameSync(join(vault, NOTE), join(vault, "archive/Ada.md"));
    const moved = await runCli(["ingest", "archive/Ada.md", "--vault", vault]);
    expect(moved.code).toBe(0);
    expect(moved.stdout).toContain("(as notes/Ada Lovelace.md, since moved)");
    expect(Object.keys(await recordedNotes(vault))).toEqual(["archive/Ada.md"]);
    // A copy whose original still exists is a second source: it is ingested.
    writeFileSync(join(vault, "copy.md"), TEXT);
    expect(JSON.parse((await runCli(["ingest", "copy.md", "--vault", vault, "--json"])).stdout)).toMatchObject({ upToDate: false });
  });

  it("keeps the registry an earlier version kept whole in sources.json: split into shards, the note still up to date", async () => {
    const vault = makeVault({ [NOTE]: TEXT });
    await runCli(["ingest", NOTE, "--vault", vault]);
    const state = join(vault, ".obsidian/plugins/synapse/state");
    // The registry as an earlier version wrote it: one file of every note.
    const notes = await recordedNotes(vault);
    rmSync(join(state, "sources"), { recursive: true });
    writeFileSync(join(state, "sources.json"), `${JSON.stringify({ version: 1, notes }, null, 1)}\n`);
    const before = mtimes(vault);
    const again = await runCli(["ingest", NOTE, "--vault", vault, "--json"]);
    expect(JSON.parse(again.stdout)).toMatchObject({ upToDate: true });
    expect(existsSync(join(state, "sources.json"))).toBe(false);
    expect(await recordedNotes(vault)).toEqual(notes);
    // Only the state folder changed: no page was rewritten.
    const after = mtimes(vault);
    for (const [path, mtime] of Object.entries(before)) if (!path.startsWith(".obsidian/")) expect(after[path]).toBe(mtime);
  });

  it("a dry run records nothing, so the next ingest still runs", async () => {
    const vault = makeVault({ [NOTE]: TEXT });
    const before = snapshot(vault);
    await runCli(["ingest", NOTE, "--vault", vault, "--dry-run"]);
    expect(snapshot(vault)).toEqual(before);
    expect(JSON.parse((await runCli(["ingest", NOTE, "--vault", vault, "--json"])).stdout)).toMatchObject({ upToDate: false });
  });
});

describe("re-ingesting an unchanged note costs no provider call (scripted Ollama)", () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startServer("ollama");
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.reset();
    server.setScript(VALID);
  });

  it("calls the model for the first ingest and for --force only", async () => {
    const vault = makeVault({ [NOTE_PATH]: noteText() });
    const ingest = (...extra: string[]) =>
      runCli(["ingest", NOTE_PATH, "--vault", vault, "--provider", "ollama", "--model", MODELS.ollama, "--base-url", server.url, "--json", ...extra]);
    expect((await ingest()).code).toBe(0);
    expect(server.modelRequests()).toHaveLength(2);

    const second = await ingest();
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ upToDate: true, usage: { inputTokens: 0, outputTokens: 0 } });
    expect(server.modelRequests()).toHaveLength(2);

    server.setScript(VALID);
    expect((await ingest("--force")).code).toBe(0);
    expect(server.modelRequests()).toHaveLength(4);
  });
});
