import { hostname } from "node:os";
import { appendFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli";
import { makeVault, readVaultFile, snapshot } from "../helpers/temp-vault";

const ADA = "notes/Ada Lovelace.md";
const ADA_TEXT = "# Ada Lovelace\n\nAda Lovelace wrote the first program for the [[Analytical Engine]] of Charles Babbage. Charles Babbage designed it.\n";
const ENGINE = "notes/Engine.md";
const ENGINE_TEXT = "# Analytical Engine\n\nThe Analytical Engine was designed by Charles Babbage. Ada Lovelace wrote about the Analytical Engine.\n";

/** The vault as a user sees it: no plugin state, and log.md apart (it only grows). */
function notes(root: string): Record<string, string> {
  return Object.fromEntries(Object.entries(snapshot(root)).filter(([p]) => !p.startsWith(".obsidian/") && p !== "wiki/log.md"));
}

const ingest = (vault: string, note: string) => runCli(["ingest", note, "--vault", vault, "--provider", "offline", "--json"]);

describe("synapse undo and history (built CLI)", () => {
  it("undoes the last ingest byte for byte, then the one before, and logs each undo", async () => {
    const vault = makeVault({ [ADA]: ADA_TEXT, [ENGINE]: ENGINE_TEXT });
    const empty = notes(vault);
    expect((await ingest(vault, ADA)).code).toBe(0);
    const afterFirst = notes(vault);
    expect((await ingest(vault, ENGINE)).code).toBe(0);
    expect(notes(vault)).not.toEqual(afterFirst);

    const undo = await runCli(["undo", "--vault", vault, "--json"]);
    expect(undo.code).toBe(0);
    const report = JSON.parse(undo.stdout) as { undone: { operation: string; label: string }; files: { path: string; action: string }[] };
    // Undo names the device whose run it takes back: this one (the test device, on this host).
    expect(report.undone).toMatchObject({ operation: "ingest", device: hostname() });
    expect(report.files.length).toBeGreaterThan(0);
    expect(notes(vault)).toEqual(afterFirst);
    const log = readVaultFile(vault, "wiki/log.md");
    expect(log).toMatch(/\n## \[\d{4}-\d{2}-\d{2}\] undo \| .+\n/);

    expect((await runCli(["undo", "--vault", vault])).code).toBe(0);
    expect(notes(vault)).toEqual({ ...empty });
    const nothing = await runCli(["undo", "--vault", vault]);
    expect(nothing).toMatchObject({ code: 0, stdout: "Nothing to undo.\n" });

    const history = await runCli(["history", "--vault", vault, "--json"]);
    expect(history.code).toBe(0);
    const { runs } = JSON.parse(history.stdout) as { runs: { operation: string; undone: boolean }[] };
    expect(runs.map((r) => `${r.operation}${r.undone ? " (undone)" : ""}`)).toEqual(["undo", "undo", "ingest (undone)", "ingest (undone)"]);
    const human = await runCli(["history", "--vault", vault]);
    expect(human.stdout.split("\n").filter(Boolean)).toHaveLength(4);
    expect(human.stdout).toContain("[undone]");
  });

  it("refuses with exit code 5 and the list of files when the user edited a page since", async () => {
    const vault = makeVault({ [ADA]: ADA_TEXT });
    expect((await ingest(vault, ADA)).code).toBe(0);
    const page = readdirSync(join(vault, "wiki", "entities"))[0] ?? "";
    appendFileSync(join(vault, "wiki", "entities", page), "\nMy own note.\n");
    const before = snapshot(vault);
    const undo = await runCli(["undo", "--vault", vault]);
    expect(undo.code).toBe(5);
    expect(undo.stderr).toContain(`wiki/entities/${page}`);
    expect(undo.stderr).toMatch(/^Not undone: these files were edited after the ingest of “.+”/);
    expect(snapshot(vault)).toEqual(before);
    const json = await runCli(["undo", "--vault", vault, "--json"]);
    expect(json.code).toBe(5);
    expect(JSON.parse(json.stdout)).toMatchObject({ undone: null, edited: [`wiki/entities/${page}`], error: { kind: "edited" } });
  });

  it("prints its usage for --help and refuses a missing --vault", async () => {
    expect(await runCli(["undo", "--help"])).toMatchObject({ code: 0, stdout: expect.stringContaining("Usage: synapse undo --vault <dir> [--json]") });
    expect(await runCli(["history", "-h"])).toMatchObject({ code: 0, stdout: expect.stringContaining("Usage: synapse history --vault <dir> [--json]") });
    expect((await runCli(["undo"])).code).toBe(2);
  });
});
