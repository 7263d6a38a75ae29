/**
 * A note that cannot be read (permissions, a failing disk) is its own outcome of a folder ingest,
 * "could not read the note", not a provider failure: the other notes are still ingested. Built
 * CLI; the denied read is injected (tests run as root, where chmod takes nothing away).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli";
import { makeVault } from "../helpers/temp-vault";

const HOOKS = new URL("../helpers/failing-disk-hooks.mjs", import.meta.url).pathname;
const note = (title: string, text: string) => `# ${title}\n\n${text}\n`;

interface FolderReport {
  notes: { path: string; outcome: string; report: { error: { kind: string; message: string } | null } | null }[];
  counts: Record<string, number>;
}

describe("a folder ingest over a note it cannot read", () => {
  it("reports that note as unreadable and ingests the others", async () => {
    const vault = makeVault({
      "notes/Ants.md": note("Ants", "Ants live in colonies under the [[Garden]]."),
      "notes/Bees.md": note("Bees", "Bees make honey in the [[Hive]] all summer."),
      "notes/Crickets.md": note("Crickets", "Crickets sing on warm nights in the [[Meadow]]."),
    });
    const env = { SYNAPSE_TEST_UNREADABLE: join(vault, "notes", "Bees.md") };
    const run = await runCli(["ingest", "notes", "--vault", vault, "--provider", "offline", "--json"], { env, nodeArgs: ["--import", HOOKS] });
    const report = JSON.parse(run.stdout) as FolderReport;
    expect(report.notes.map((n) => [n.path, n.outcome])).toEqual([
      ["notes/Ants.md", "ingested"],
      ["notes/Bees.md", "unreadable"],
      ["notes/Crickets.md", "ingested"],
    ]);
    expect(report.notes[1]?.report?.error).toEqual({ kind: "input", message: 'Could not read the note "notes/Bees.md": permission was denied (EACCES).' });
    expect(report.counts).toMatchObject({ ingested: 2, unreadable: 1, failed: 0, not_started: 0 });
    // The worst outcome is an unusable note (2), not a provider failure (4).
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('[2/3] notes/Bees.md … Could not read the note "notes/Bees.md": permission was denied (EACCES).');
    expect(run.stderr).not.toContain("Stopped");
  });
});
