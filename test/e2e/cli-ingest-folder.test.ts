/**
 * `synapse ingest <folder>` through the built CLI: the notes it takes and skips (wiki, excluded
 * folders, also under a decomposed Unicode name), progress per note, the JSON report of every
 * note's outcome, the worst outcome's exit code, unchanged notes skipped, and Ctrl-C between notes.
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually";
import { CLI, cliEnv, runCli } from "../helpers/run-cli";
import type { ScriptedServer } from "../helpers/scripted-server";
import { makeVault, snapshot } from "../helpers/temp-vault";
import { MODELS, NOTE_PATH, VALID, noteText, startServer } from "../providers/harness";

interface FolderReport {
  folder: string;
  notes: { path: string; outcome: string; report: { converged: boolean; upToDate: boolean; pages: { path: string }[]; error: { kind: string } | null } | null }[];
  counts: Record<string, number>;
  skipped: number;
  error: unknown;
}

const note = (title: string, text: string) => `# ${title}\n\n${text}\n`;

/** "Privé" spelled decomposed (e + combining acute), as a macOS listing may hand it out. */
const PRIVATE_NFD = "Prive\u0301";

function aFolderVault(): string {
  const vault = makeVault({
    "notes/Bees.md": note("Bees", "Bees make honey in the [[Hive]] all summer."),
    "notes/garden/Roses.md": note("Roses", "Roses need [[Sunlight]] and patience."),
    "notes/broken.md": new Uint8Array([0x89, 0x50, 0, 0, 1]),
    [`notes/${PRIVATE_NFD}/Diary.md`]: note("Diary", "Nothing for any model."),
    "notes/readme.txt": "not a note",
  });
  mkdirSync(join(vault, ".obsidian/plugins/synapse"), { recursive: true });
  writeFileSync(join(vault, ".obsidian/plugins/synapse/data.json"), JSON.stringify({ version: 1, excludedFolders: ["notes/Privé"] }));
  return vault;
}

describe("synapse ingest <folder> (built CLI, offline)", () => {
  it("ingests every note of the folder, reports each outcome in JSON and exits with the worst outcome's code", async () => {
    const vault = aFolderVault();
    const run = await runCli(["ingest", "notes", "--vault", vault, "--json"]);
    expect(run.code).toBe(2); // the binary note is unusable; the others went through
    expect(run.stdout.trim().split("\n")).toHaveLength(1);
    const report = JSON.parse(run.stdout) as FolderReport;
    expect(Object.keys(report)).toEqual(["folder", "notes", "counts", "skipped", "error"]);
    expect(report.folder).toBe("notes");
    expect(report.notes.map((n) => `${n.outcome} ${n.path}`)).toEqual(["ingested notes/Bees.md", "failed notes/broken.md", "ingested notes/garden/Roses.md"]);
    expect(report.counts).toEqual({ ingested: 2, planned: 0, up_to_date: 0, not_converged: 0, unreadable: 0, failed: 1, cancelled: 0, not_started: 0 });
    expect(report.skipped).toBe(1);
    expect(report.notes[1]?.report?.error?.kind).toBe("input");
    // Each note's report is the single-note report.
    expect(Object.keys(report.notes[0]?.report ?? {})).toEqual(["converged", "stopReason", "issues", "upToDate", "attempts", "pages", "contradictions", "locked", "linkedNotes", "usage", "provider", "error"]);
    expect(run.stderr).toMatch(/^\[1\/3\] notes\/Bees\.md … created 2$/m);
    expect(run.stderr).toMatch(/^\[2\/3\] notes\/broken\.md … error \(input\): .+$/m);
    const files = Object.keys(snapshot(vault));
    expect(files).toContain("wiki/concepts/Hive.md");
    expect(files.some((f) => f.includes("Diary"))).toBe(true);
    expect(files.some((f) => f.startsWith("wiki/") && f.includes("Diary"))).toBe(false);
  });

  it("skips unchanged notes on the next run, ingests the changed one, and walks the whole vault without the wiki", async () => {
    const vault = aFolderVault();
    await runCli(["ingest", "notes", "--vault", vault]);
    writeFileSync(join(vault, "notes/garden/Roses.md"), note("Roses", "Roses need [[Sunlight]], water and patience."));
    const run = await runCli(["ingest", ".", "--vault", vault, "--json"]);
    const report = JSON.parse(run.stdout) as FolderReport;
    expect(report.folder).toBe("");
    expect(report.notes.map((n) => `${n.outcome} ${n.path}`)).toEqual(["up_to_date notes/Bees.md", "failed notes/broken.md", "ingested notes/garden/Roses.md"]);
    expect(report.skipped).toBeGreaterThan(4); // the wiki's pages, index.md, log.md, the private diary
    expect(run.stderr).toMatch(/^\[1\/3\] notes\/Bees\.md … already up to date$/m);
  });

  it("prints a readable summary without --json, exits 0 when every note went through, and plans with --dry-run", async () => {
    const vault = makeVault({ "notes/Bees.md": note("Bees", "Bees make honey in the [[Hive]].") });
    const before = snapshot(vault);
    const dry = await runCli(["ingest", "notes", "--vault", vault, "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('  create wiki/concepts/Hive.md  "Hive" (concept)');
    expect(dry.stdout).toContain("Folder notes: 1 planned.");
    expect(snapshot(vault)).toEqual(before);
    const run = await runCli(["ingest", "notes", "--vault", vault]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Folder notes: 1 ingested.\n");
    expect(run.stderr).toContain("Ingesting 1 note from notes with offline, on this machine…");
  });

  it("an empty folder is no error", async () => {
    const vault = makeVault({ "empty/readme.txt": "nothing" });
    const run = await runCli(["ingest", "empty", "--vault", vault, "--json"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ notes: [], counts: { ingested: 0 }, skipped: 0 });
  });
});

describe("Ctrl-C during a folder ingest (scripted Ollama)", () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startServer("ollama");
    // The first note is answered; the second note's analysis never comes back.
    server.setScript((_request, index) => (index < 2 ? (VALID[index] ?? VALID[0]!) : { kind: "slow", delayMs: 120_000 }));
  });
  afterAll(() => server.close());

  it("stops the running note without writing it, starts no other, keeps the finished one, and exits 130", async () => {
    const vault = makeVault({ [NOTE_PATH]: noteText(), "notes/Zeta.md": note("Zeta", "Zeta is a letter."), "notes/Zz.md": note("Zz", "Sleep.") });
    const child = spawn(process.execPath, [CLI, "ingest", "notes", "--vault", vault, "--provider", "ollama", "--model", MODELS.ollama, "--base-url", server.url, "--json"], {
      env: cliEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    await eventually(() => expect(server.modelRequests()).toHaveLength(3));
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    const report = JSON.parse(stdout) as FolderReport;
    expect(report.notes.map((n) => `${n.outcome} ${n.path}`)).toEqual([`ingested ${NOTE_PATH}`, "cancelled notes/Zeta.md", "not_started notes/Zz.md"]);
    expect(report.notes[2]?.report).toBeNull();
    const pages = Object.keys(snapshot(vault)).filter((p) => p.startsWith("wiki/"));
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.some((p) => p.includes("Zeta"))).toBe(false);
  });
});
