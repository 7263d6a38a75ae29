import { rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli";
import { makeVault, readVaultFile, snapshot } from "../helpers/temp-vault";

const GONE = "notes/Lighthouses.md";
const STAYS = "notes/Harbours.md";
const GONE_TEXT = "# Lighthouses\n\nA lighthouse is a tower with a lamp that guides ships at night. The [[Fresnel lens]] made its beam reach far.\n";
const STAYS_TEXT = "# Harbours\n\nA harbour shelters ships from the sea. Many harbours keep a lighthouse at their mouth.\n";

interface RetractJson {
  note: string | null;
  runId: string | null;
  changes: { path: string; action: string; detail: string; diff?: string }[];
  kept: { path: string; detail: string }[];
  error: { kind: string; message: string } | null;
}

async function ingested(): Promise<string> {
  const vault = makeVault({ [GONE]: GONE_TEXT, [STAYS]: STAYS_TEXT });
  for (const note of [GONE, STAYS]) expect((await runCli(["ingest", note, "--vault", vault, "--provider", "offline", "--json"])).code).toBe(0);
  return vault;
}

/** Every file of the vault but log.md (which records each run) and Synapse's state folder. */
function wikiFiles(vault: string): Record<string, string> {
  return Object.fromEntries(Object.entries(snapshot(vault)).filter(([path]) => !path.endsWith("log.md") && !path.startsWith(".obsidian/")));
}

describe("synapse retract (built CLI, Offline provider)", () => {
  it("takes a deleted note's part out of the wiki and index.md, and undo restores every byte", async () => {
    const vault = await ingested();
    rmSync(join(vault, GONE));
    const before = wikiFiles(vault);
    expect(Object.values(before).some((text) => text.includes(GONE))).toBe(true);

    const run = await runCli(["retract", GONE, "--vault", vault, "--json", "--diff"]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as RetractJson;
    expect(report.error).toBeNull();
    expect(report.note).toBe(GONE);
    expect(report.changes.length).toBeGreaterThan(0);
    expect(report.changes.every((c) => (c.diff ?? "").length > 0)).toBe(true);
    const after = wikiFiles(vault);
    for (const [path, text] of Object.entries(after)) {
      expect(text.includes(`synapse:source ${GONE}`), path).toBe(false);
      expect(text.includes("tower with a lamp"), path).toBe(false);
    }
    for (const removed of report.changes.filter((c) => c.action === "removed")) {
      expect(after[removed.path]).toBeUndefined();
      expect(readVaultFile(vault, "wiki/index.md")).not.toContain(`[[${removed.path.replace(/\.md$/, "")}|`);
    }
    expect(readVaultFile(vault, "wiki/index.md")).toContain("Harbours");

    const undo = await runCli(["undo", "--vault", vault]);
    expect(undo.code).toBe(0);
    expect(undo.stdout).toMatch(/retract/);
    expect(wikiFiles(vault)).toEqual(before);
  });

  it("refuses a note that still exists, plans only with --dry-run, and says in words what is wrong", async () => {
    const vault = await ingested();
    const refused = await runCli(["retract", GONE, "--vault", vault, "--json"]);
    expect(refused.code).toBe(2);
    expect((JSON.parse(refused.stdout) as RetractJson).error?.message).toMatch(/still exists/);

    rmSync(join(vault, GONE));
    const before = snapshot(vault);
    const dry = await runCli(["retract", "notes/Lighthouses", "--vault", vault, "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^Would retract notes\/Lighthouses\.md: \d+ page\(s\)/);
    expect(snapshot(vault)).toEqual(before);

    const usage = await runCli(["retract", "--vault", vault]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/Name one source note/);
  });
});

describe("index.md follows pages changed on disk (built CLI)", () => {
  it("drops the line of a page deleted on disk before the next ingest, in a run of its own", async () => {
    const vault = await ingested();
    const index = readVaultFile(vault, "wiki/index.md");
    const line = index.split("\n").find((l) => l.startsWith("- [[wiki/") && l.includes("Lighthouses"));
    expect(line).toBeDefined();
    const target = /\[\[([^|\]]+)\|/.exec(line ?? "")?.[1] ?? "";
    rmSync(join(vault, `${target}.md`));
    const run = await runCli(["ingest", STAYS, "--vault", vault, "--provider", "offline"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/index\.md now follows/);
    expect(readVaultFile(vault, "wiki/index.md")).not.toContain(`[[${target}|`);
    const history = JSON.parse((await runCli(["history", "--vault", vault, "--json"])).stdout) as { runs: { operation: string }[] };
    expect(history.runs.map((r) => r.operation)).toContain("index");
  });
});
