import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { makeVault, snapshot } from "../helpers/temp-vault";
import { runCli } from "../helpers/run-cli";

const NOTE = "notes/Ada Lovelace.md";
const TEXT = "# Ada Lovelace\n\nAda Lovelace wrote the first program for the [[Analytical Engine]] of Charles Babbage. Charles Babbage designed it.\n";

const REPORT_KEYS = ["converged", "stopReason", "issues", "upToDate", "attempts", "pages", "contradictions", "locked", "linkedNotes", "usage", "provider", "error"];

/** A port nothing listens on. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== "object" || !address) throw new Error("no port");
  return address.port;
}

describe("synapse ingest (built CLI)", () => {
  it("ingests with the Offline provider and prints exactly the documented JSON report", async () => {
    const vault = makeVault({ [NOTE]: TEXT });
    const run = await runCli(["ingest", NOTE, "--vault", vault, "--provider", "offline", "--json"]);
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split("\n")).toHaveLength(1);
    const report = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(Object.keys(report)).toEqual(REPORT_KEYS);
    expect(report).toMatchObject({
      converged: true,
      attempts: { analyze: 1, generate: 1 },
      usage: { inputTokens: 0, outputTokens: 0 },
      provider: { name: "offline", mode: "offline", isLocal: true },
      error: null,
    });
    const pages = report.pages as { path: string; type: string; title: string; action: string }[];
    expect(pages.map((p) => Object.keys(p))).toEqual(pages.map(() => ["path", "type", "title", "action"]));
    expect(pages.map((p) => `${p.action} ${p.path}`)).toEqual([
      "created wiki/sources/Ada Lovelace (source).md",
      "created wiki/entities/Analytical Engine.md",
      "created wiki/entities/Charles Babbage.md",
    ]);
    const files = snapshot(vault);
    for (const page of pages) expect(files[page.path]).toContain(`sources:\n  - ${NOTE}`);
    expect(files["wiki/index.md"]).toContain("Charles Babbage");
  });

  it("shows progress and a readable summary without --json", async () => {
    const vault = makeVault({ [NOTE]: TEXT });
    const run = await runCli(["ingest", NOTE, "--vault", vault]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("analysing");
    expect(run.stderr).toContain("generating (attempt 1 of 3)");
    expect(run.stdout).toMatch(/^Done in [\d.]+ s: 3 created\./);
    expect(run.stdout).toContain("+ wiki/entities/Charles Babbage.md");
  });

  it("writes the pages' fixed words in the language --lang names, overriding the vault's setting", async () => {
    const vault = makeVault({ [NOTE]: TEXT });
    mkdirSync(join(vault, ".obsidian/plugins/synapse"), { recursive: true });
    writeFileSync(join(vault, ".obsidian/plugins/synapse/data.json"), JSON.stringify({ version: 1, wikiLanguage: "fr" }));
    const run = await runCli(["ingest", NOTE, "--vault", vault, "--lang", "DE", "--json"]);
    expect(run.code).toBe(0);
    const source = snapshot(vault)["wiki/sources/Ada Lovelace (source).md"] ?? "";
    expect(source).toContain("> [!info] Ohne Sprachmodell extrahiert");
    expect(source).toContain("## Zusammenfassung");
    // The summary is the note's own English sentence, and lang says what the page's text is.
    expect(source).toContain("lang: en");
    expect(source).toContain("Ada Lovelace wrote the first program");
  });

  it("writes nothing with --dry-run and still reports the plan", async () => {
    const vault = makeVault({ [NOTE]: TEXT });
    const before = snapshot(vault);
    const run = await runCli(["ingest", NOTE, "--vault", vault, "--dry-run", "--json"]);
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { pages: unknown[] }).pages).toHaveLength(3);
    expect(snapshot(vault)).toEqual(before);
  });

  it("reads the vault's plugin settings, and accepts the note relative to the working directory", async () => {
    const vault = makeVault({ [NOTE]: TEXT });
    mkdirSync(join(vault, ".obsidian/plugins/synapse"), { recursive: true });
    writeFileSync(join(vault, ".obsidian/plugins/synapse/data.json"), JSON.stringify({ version: 1, wikiFolder: "Knowledge/Wiki" }));
    const run = await runCli(["ingest", join("notes", "Ada Lovelace.md"), "--vault", ".", "--json"], { cwd: vault });
    expect(run.code).toBe(0);
    expect(snapshot(vault)).toHaveProperty(["Knowledge/Wiki/index.md"]);
  });

  it.each([
    ["no note", ["ingest", "--vault", "."], /Name the note/],
    ["no vault", ["ingest", NOTE], /--vault <dir> is required/],
    ["an unknown flag", ["ingest", NOTE, "--vault", ".", "--fast"], /Unknown option '--fast'/],
    ["an unknown provider", ["ingest", NOTE, "--vault", ".", "--provider", "gpt"], /Unknown provider "gpt"/],
    ["a bad --max-iter", ["ingest", NOTE, "--vault", ".", "--max-iter", "0"], /--max-iter must be a whole number from 1 to 10/],
    ["a model for the offline provider", ["ingest", NOTE, "--vault", ".", "--model", "x"], /uses no model/],
    ["a --lang that is not a language code", ["ingest", NOTE, "--vault", ".", "--lang", "german"], /--lang must be "auto" \(each note's language\) or a two-letter ISO 639-1 code such as "en", "de" or "ja", not "german"\./],
    ["an unknown command", ["digest"], /Unknown command "digest"/],
  ])("exits 2 with a usage message for %s", async (_name, args, message) => {
    const vault = makeVault({ [NOTE]: TEXT });
    const run = await runCli(args, { cwd: vault });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it("exits 2 when the vault folder does not exist", async () => {
    const run = await runCli(["ingest", NOTE, "--vault", "/nonexistent/vault"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("does not exist");
  });

  it("exits 2 with the error in the report when the note is missing or binary, writing nothing", async () => {
    const vault = makeVault({ "notes/image.md": new Uint8Array([0x89, 0x50, 0, 0, 1]) });
    const before = snapshot(vault);
    for (const note of ["notes/missing.md", "notes/image.md"]) {
      const run = await runCli(["ingest", note, "--vault", vault, "--json"]);
      expect(run.code).toBe(2);
      expect(JSON.parse(run.stdout)).toMatchObject({ converged: false, pages: [], error: { kind: "input" } });
    }
    expect(snapshot(vault)).toEqual(before);
  });

  it("exits 4 with a one-sentence error when the provider's server is down, writing nothing", async () => {
    const vault = makeVault({ [NOTE]: TEXT });
    const before = snapshot(vault);
    const port = await deadPort();
    const args = ["ingest", NOTE, "--vault", vault, "--provider", "ollama", "--model", "llama3.2", "--base-url", `http://127.0.0.1:${port}`];
    const json = await runCli([...args, "--json"]);
    expect(json.code).toBe(4);
    expect(JSON.parse(json.stdout)).toMatchObject({ converged: false, pages: [], provider: { name: "ollama", isLocal: true }, error: { kind: "transport" } });
    const human = await runCli(args);
    expect(human.code).toBe(4);
    expect(human.stdout).toMatch(/^Error \(transport\): .+\.\nNothing was written/);
    expect(human.stdout + human.stderr).not.toMatch(/\n\s+at /);
    expect(snapshot(vault)).toEqual(before);
  });
});
