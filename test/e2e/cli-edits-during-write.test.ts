/**
 * A page the user edits while the CLI is removing pages is never lost: `synapse undo` and
 * `synapse lint --fix all` (a merge removes the duplicate) each stop when the page they are about
 * to remove was edited after they planned it, undo what they had written, and name the page.
 * The CLI pauses after each file it writes (a test-only setting), and the edit lands in a pause.
 */
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SIMILAR_WIKI } from "../lint/similar-wiki";
import { runCli, TEST_DEVICE_ID, type CliRun } from "../helpers/run-cli";
import { makeVault, snapshot } from "../helpers/temp-vault";

const STATE = ".obsidian/plugins/synapse/state";
const ADA = "notes/Ada Lovelace.md";
const ADA_TEXT = "# Ada Lovelace\n\nAda Lovelace wrote the first program for the [[Analytical Engine]] of Charles Babbage. Charles Babbage designed it. Luigi Menabrea described it.\n";
const EDIT = "\nTyped while Synapse was writing.\n";

type Entry = { kind: string; path?: string; previous?: string | null; nextHash?: string | null };

function readEntries(vault: string): Entry[] | null {
  try {
    return (JSON.parse(readFileSync(join(vault, STATE, "journal", `${TEST_DEVICE_ID}.json`), "utf8")) as { entries: Entry[] }).entries;
  } catch {
    return null; // no journal yet, or caught mid-write
  }
}

function holds(vault: string, path: string): string | null {
  try {
    return readFileSync(join(vault, path), "utf8");
  } catch {
    return null;
  }
}

/**
 * Runs the CLI and, once its first file is written, appends to the last page its journal says it
 * removes (still there: the removals come after). Resolves with the run and the page edited.
 */
async function editLastRemovalDuringRun(vault: string, args: readonly string[]): Promise<{ run: CliRun; edited: string | null }> {
  let edited: string | null = null;
  const running = runCli(args, { env: { SYNAPSE_TEST_APPLY_DELAY_MS: "1500" }, timeoutMs: 180_000 });
  const timer = setInterval(() => {
    if (edited !== null) return;
    const entries = readEntries(vault);
    if (!entries) return;
    const files = entries.filter((e): e is Entry & { path: string } => e.kind === "write" && e.path !== undefined);
    const removals = files.filter((e) => e.nextHash === null && e.previous !== null);
    const target = removals[removals.length - 1];
    const first = files[0];
    if (!target || !first || first === target || holds(vault, first.path) === (first.previous ?? null)) return;
    if (!existsSync(join(vault, target.path))) return;
    appendFileSync(join(vault, target.path), EDIT);
    edited = target.path;
  }, 20);
  try {
    return { run: await running, edited };
  } finally {
    clearInterval(timer);
  }
}

const notes = (root: string) => Object.fromEntries(Object.entries(snapshot(root)).filter(([p]) => !p.startsWith(".obsidian/") && p !== "wiki/log.md"));

describe("an edit made while the CLI removes pages (built CLI)", () => {
  it("undo stops, restores what it wrote, and keeps the edited page", async () => {
    const vault = makeVault({ [ADA]: ADA_TEXT });
    expect((await runCli(["ingest", ADA, "--vault", vault, "--provider", "offline"])).code).toBe(0);
    const before = notes(vault);

    const { run, edited } = await editLastRemovalDuringRun(vault, ["undo", "--vault", vault]);
    expect(edited).not.toBeNull();
    const page = edited ?? "";
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(page);
    expect(run.stderr).toMatch(/undone/);
    expect(notes(vault)).toEqual({ ...before, [page]: `${before[page] ?? ""}${EDIT}` });
  });

  it("lint --fix all stops before a merge removes the edited duplicate, and keeps it", async () => {
    const vault = makeVault({ ...SIMILAR_WIKI, "wiki/index.md": "# Wiki index\n" });
    const before = notes(vault);

    const { run, edited } = await editLastRemovalDuringRun(vault, ["lint", "--vault", vault, "--fix", "all"]);
    expect(edited).not.toBeNull();
    const page = edited ?? "";
    expect(run.code).not.toBe(0);
    expect(`${run.stdout}${run.stderr}`).toContain(page);
    expect(notes(vault)).toEqual({ ...before, [page]: `${before[page] ?? ""}${EDIT}` });
  });
});
