/**
 * The CLI starts fast and helps: `--version`, `--help` and every command's `--help` load only the
 * few kilobytes of the command table, an ingest loads only the SDK of the backend it uses, and
 * `--help` / `-h` anywhere in a command's arguments prints that command's usage. What a run
 * loaded is recorded by loader hooks, so these tests count modules, never milliseconds (the
 * timing is in `npm run bench`).
 */
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/commands";
import { runCli } from "../helpers/run-cli";
import { makeVault } from "../helpers/temp-vault";

const HOOKS = new URL("../helpers/record-loads.mjs", import.meta.url).pathname;

/** Strings only each SDK's code contains. */
const SDK_MARKERS = { anthropic: "anthropic-version", openai: "OpenAI-Organization", ollama: "ollama-js", agent: "claude-agent-sdk" } as const;

async function loadsOf(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string; files: string[] }> {
  const out = join(mkdtempSync(join(tmpdir(), "synapse-loads-")), "loads.txt");
  const run = await runCli(args, { nodeArgs: ["--import", HOOKS], env: { SYNAPSE_RECORD_LOADS: out } });
  const files = readFileSync(out, "utf8").split("\n").filter((line) => line.includes("/dist/"));
  return { ...run, files };
}

function sdksIn(files: readonly string[]): string[] {
  return Object.entries(SDK_MARKERS)
    .filter(([, marker]) => files.some((f) => readFileSync(f, "utf8").includes(marker)))
    .map(([name]) => name);
}

const bytes = (files: readonly string[]) => files.reduce((sum, f) => sum + statSync(f).size, 0);

describe("synapse starts fast", () => {
  it.each(["--version", "--help", ...COMMANDS.map((c) => `${c.name} --help`)])("`synapse %s` loads only the command table", async (line) => {
    const run = await loadsOf(line.split(" "));
    expect(run.code).toBe(0);
    expect(sdksIn(run.files)).toEqual([]);
    // The entry file and a few small shared chunks; the full CLI is over 2 MB.
    expect(bytes(run.files)).toBeLessThan(32 * 1024);
  });

  it("loads no SDK for an Offline ingest", async () => {
    const vault = makeVault({ "notes/Ada.md": "# Ada\n\nAda Lovelace wrote the first program.\n" });
    const run = await loadsOf(["ingest", "notes/Ada.md", "--vault", vault, "--provider", "offline", "--dry-run"]);
    expect(run.code).toBe(0);
    expect(sdksIn(run.files)).toEqual([]);
  });

  it("loads no provider code for a search of a vault without embeddings", async () => {
    const vault = makeVault({ "notes/Ada.md": "# Ada\n\nAda Lovelace wrote the first program.\n" });
    // A sentence of src/providers/embedder.ts, the module that builds an embedder from the settings.
    const providers = (files: readonly string[]) => files.some((f) => readFileSync(f, "utf8").includes("returned vectors of different lengths"));
    const plain = await loadsOf(["search", "lovelace", "--vault", vault, "--json"]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(providers(plain.files)).toBe(false);
    expect(sdksIn(plain.files)).toEqual([]);
    // An embedding flag, even "none", asks for the module (and the same answer).
    const flagged = await loadsOf(["search", "lovelace", "--vault", vault, "--json", "--embed-provider", "none"]);
    expect(flagged.code, flagged.stderr).toBe(0);
    expect(providers(flagged.files)).toBe(true);
    const results = (stdout: string) => (JSON.parse(stdout) as { results: unknown[] }).results;
    expect(results(flagged.stdout)).toEqual(results(plain.stdout));
  });
});

describe("every command helps", () => {
  it.each(COMMANDS.map((c) => [c.name]))("`synapse %s` prints its usage for --help or -h anywhere in its arguments, and exits 0", async (name) => {
    const command = COMMANDS.find((c) => c.name === name);
    for (const args of [[name, "--help"], [name, "-h"], [name, "--vault", ".", "--help"], [name, "some-note.md", "--json", "-h"]]) {
      const run = await runCli(args);
      expect(run.code, args.join(" ")).toBe(0);
      expect(run.stdout.trimEnd()).toBe(command?.usage.trimEnd());
      expect(run.stderr).toBe("");
    }
  });

  it("still refuses an unknown option with the command's usage", async () => {
    const run = await runCli(["models", "--fast"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Usage: synapse models");
  });

  it("names each command in the top-level help", async () => {
    const run = await runCli(["--help"]);
    for (const command of COMMANDS) expect(run.stdout).toContain(`synapse ${command.name} `);
  });
});
