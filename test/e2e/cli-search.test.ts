import { appendFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeVault, snapshot } from "../helpers/temp-vault";
import { runCli } from "../helpers/run-cli";

const NOTES = {
  "notes/Espresso.md": "# Espresso\n\nEspresso is brewed by forcing hot water through finely ground coffee.\n\n## Crema\n\nThe crema is the foam on top.",
  "wiki/Coffee.md": "---\ntype: concept\n---\nCoffee is a drink. See [[Espresso]].",
  "private/secret.md": "crema recipe kept private",
  "notes/Tea.md": "Tea is steeped, not brewed under pressure.",
};

function vaultWithSettings() {
  const vault = makeVault(NOTES);
  mkdirSync(join(vault, ".obsidian/plugins/synapse"), { recursive: true });
  writeFileSync(join(vault, ".obsidian/plugins/synapse/data.json"), JSON.stringify({ excludedFolders: ["private"] }));
  return vault;
}

describe("synapse search and index (built CLI)", () => {
  it("index builds, reports counts, then updates incrementally", async () => {
    const vault = vaultWithSettings();
    const notesBefore = snapshot(vault);
    const first = await runCli(["index", "--vault", vault, "--json"]);
    expect(first.code).toBe(0);
    const report = JSON.parse(first.stdout) as Record<string, number>;
    expect(Object.keys(report)).toEqual(["notes", "chunks", "indexed", "removed", "unchanged", "rebuiltShards", "rebuiltVectorShards", "bytes", "tookMs", "vectorNotes", "embedded", "vectorError"]);
    expect(report).toMatchObject({ vectorNotes: 0, embedded: 0, vectorError: null });
    expect(report).toMatchObject({ notes: 3, indexed: 3, removed: 0 });
    expect(report.bytes).toBeGreaterThan(0);
    // The notes themselves are untouched; the index lives in the state folder.
    const after = snapshot(vault);
    for (const [path, text] of Object.entries(notesBefore)) expect(after[path]).toBe(text);
    expect(Object.keys(after).some((p) => p.startsWith(".obsidian/plugins/synapse/state/index/"))).toBe(true);

    appendFileSync(join(vault, "notes/Tea.md"), "\nGreen tea too.");
    const second = JSON.parse((await runCli(["index", "--vault", vault, "--json"])).stdout) as Record<string, number>;
    expect(second).toMatchObject({ notes: 3, indexed: 1, unchanged: 2 });
    const human = await runCli(["index", "--vault", vault]);
    expect(human.stdout).toMatch(/3 notes .* 0 new or changed/);
    expect(human.stderr).toMatch(/Indexing 3\/3 notes/);

    // A file the index does not own is neither loaded nor counted in its size (nor removed).
    const stray = join(vault, ".obsidian/plugins/synapse/state/index/text-zz.bin");
    writeFileSync(stray, Buffer.alloc(100_000));
    const third = JSON.parse((await runCli(["index", "--vault", vault, "--json"])).stdout) as Record<string, number>;
    expect(third).toMatchObject({ notes: 3, indexed: 0, rebuiltShards: 0, rebuiltVectorShards: 0, bytes: second.bytes });
    expect(existsSync(stray)).toBe(true);
  });

  it("search --json prints exactly {results:[{path,heading,score,snippet}], tookMs}, ranked, scoped, never excluded", async () => {
    const vault = vaultWithSettings();
    const run = await runCli(["search", "crema", "--vault", vault, "--json"]);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as { results: Record<string, unknown>[]; tookMs: number };
    expect(Object.keys(out)).toEqual(["results", "tookMs"]);
    expect(typeof out.tookMs).toBe("number");
    expect(out.results[0]).toEqual({ path: "notes/Espresso.md", heading: "Crema", score: expect.any(Number), snippet: expect.stringMatching(/\*\*crema\*\*/i) });
    expect(out.results.map((r) => r.path)).not.toContain("private/secret.md");
    for (const r of out.results) expect(Object.keys(r)).toEqual(["path", "heading", "score", "snippet"]);

    const wiki = JSON.parse((await runCli(["search", "coffee", "--vault", vault, "--scope", "wiki", "--json"])).stdout) as typeof out;
    expect(wiki.results.map((r) => r.path)).toEqual(["wiki/Coffee.md"]);
    const limited = JSON.parse((await runCli(["search", "brewed", "--vault", vault, "--limit", "1", "--json"])).stdout) as typeof out;
    expect(limited.results).toHaveLength(1);
  });

  it("search sees notes edited, added and deleted since the last index; SYNAPSE_TIMING=1 adds one line of phase times", async () => {
    const vault = vaultWithSettings();
    expect((await runCli(["index", "--vault", vault, "--json"])).code).toBe(0);
    appendFileSync(join(vault, "notes/Tea.md"), "\nOolong is half oxidised.");
    writeFileSync(join(vault, "notes/Mate.md"), "Yerba mate is drunk from a gourd.");
    rmSync(join(vault, "notes/Espresso.md"));
    const paths = async (query: string, env: NodeJS.ProcessEnv = {}) => {
      const run = await runCli(["search", query, "--vault", vault, "--json"], { env });
      expect(run.code, run.stderr).toBe(0);
      return { paths: (JSON.parse(run.stdout) as { results: { path: string }[] }).results.map((r) => r.path), stderr: run.stderr };
    };
    const timed = await paths("oolong", { SYNAPSE_TIMING: "1" });
    expect(timed.paths).toEqual(["notes/Tea.md"]);
    expect((await paths("gourd")).paths).toEqual(["notes/Mate.md"]);
    expect((await paths("crema")).paths).toEqual([]);
    expect((await paths("espresso")).paths).not.toContain("notes/Espresso.md");

    const line = timed.stderr.split("\n").find((l) => l.startsWith("synapse-timing "));
    const timing = JSON.parse(line?.slice("synapse-timing ".length) ?? "null") as { loadedMs: number; phases: Record<string, number>; endMs: number; cpuMs: number };
    expect(Object.keys(timing.phases)).toEqual(["command", "settings", "recovered", "indexLoaded", "listed", "synced", "queried"]);
    const marks = [timing.loadedMs, ...Object.values(timing.phases), timing.endMs];
    expect([...marks].sort((a, b) => a - b)).toEqual(marks);
    expect(timing.cpuMs).toBeGreaterThan(0);
    expect((await paths("gourd")).stderr).not.toMatch(/synapse-timing/);
  });

  it("search prints ranked lines for people and refuses bad flags with a usage error", async () => {
    const vault = vaultWithSettings();
    const human = await runCli(["search", "espresso", "--vault", vault]);
    expect(human.stdout).toMatch(/^1\. notes\/Espresso\.md/m);
    expect(human.stdout).toMatch(/results? in/);
    const bad = await runCli(["search", "x", "--vault", vault, "--limit", "zero"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--limit must be a whole number/);
    expect((await runCli(["search", "--vault", vault])).code).toBe(2);
    expect((await runCli(["index"])).stderr).toMatch(/--vault <dir> is required/);
  });

  it("refuses, before any work, a limit that is not plain digits, a query over 10,000 characters, a folder the vault lacks and an excluded folder", async () => {
    const vault = vaultWithSettings();
    const refused = [
      [["--limit", "1e1"], /--limit must be a whole number from 1 to 1000 \(got "1e1"\)/],
      [["--limit", "0x5"], /--limit must be a whole number/],
      [["--limit", " 7"], /--limit must be a whole number/],
      [["--limit", "0"], /--limit must be a whole number/],
      [["--scope", "nosuchfolder"], /The vault has no folder "nosuchfolder"/],
      [["--scope", "notes,nosuch"], /The vault has no folder "nosuch"/],
      [["--scope", "../outside"], /outside the vault/],
      [["--scope", "private"], /"private" is in the excluded folders/],
    ] as const;
    for (const [flags, message] of refused) {
      const run = await runCli(["search", "crema", "--vault", vault, ...flags]);
      expect(run.code, flags.join(" ")).toBe(2);
      expect(run.stderr).toMatch(message);
    }
    const long = await runCli(["search", "crema ".repeat(2000), "--vault", vault]);
    expect(long.code).toBe(2);
    expect(long.stderr).toMatch(/longer than 10,000 characters/);
    // Nothing was indexed: the refusals came before the index was opened.
    expect(existsSync(join(vault, ".obsidian/plugins/synapse/state/index"))).toBe(false);

    const ok = await runCli(["search", "crema", "--vault", vault, "--scope", "notes/", "--limit", "5", "--json"]);
    expect(ok.code, ok.stderr).toBe(0);
    expect((JSON.parse(ok.stdout) as { results: { path: string }[] }).results.map((r) => r.path)).toEqual(["notes/Espresso.md"]);
  });
});
