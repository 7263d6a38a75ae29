import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { recordedNotes } from "../helpers/registry-on-disk";
import { CLI, cliEnv, runCli, TEST_DEVICE_ID } from "../helpers/run-cli";
import { makeVault, snapshot } from "../helpers/temp-vault";

const NOTE = "notes/Ada Lovelace.md";
const TEXT = "# Ada Lovelace\n\nAda Lovelace wrote the first program for the [[Analytical Engine]] of Charles Babbage. Charles Babbage designed it. Luigi Menabrea described it.\n";
const STATE = ".obsidian/plugins/synapse/state";
/** This device's journal (the CLI's device in tests: see run-cli.ts). */
const JOURNAL = `${TEST_DEVICE_ID}.json`;

function notes(root: string): Record<string, string> {
  return Object.fromEntries(Object.entries(snapshot(root)).filter(([p]) => !p.startsWith(".obsidian/")));
}

/**
 * Whether a file holds something else than `text` now. While the CLI replaces a file it is set
 * aside for the moment of its comparison (node-guarded-write.ts): not there yet is not changed.
 */
function changedFrom(path: string, text: string): boolean {
  try {
    return readFileSync(path, "utf8") !== text;
  } catch {
    return false;
  }
}

type JournalEntries = { path?: string; key?: string; kind: string; previous?: string | null }[];

/** Starts an ingest that pauses after each file it writes, and kills it (SIGKILL) after `writes` new pages were written. */
function killDuringApply(vault: string, writes: number): Promise<void> {
  return killWhen(vault, (entries) => entries.filter((e) => e.kind === "write" && e.previous === null && e.path !== undefined && existsSync(join(vault, e.path))).length >= writes);
}

/** Starts an ingest that pauses after each file it writes, and kills it (SIGKILL) once `written` says the run got far enough. */
function killWhen(vault: string, written: (entries: JournalEntries) => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "ingest", NOTE, "--vault", vault, "--provider", "offline"], {
      env: cliEnv({ SYNAPSE_TEST_APPLY_DELAY_MS: "1500" }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const journal = join(vault, STATE, "journal", JOURNAL);
    let killed = false;
    // The pause after each write is long next to the polling; poll the vault to see how far the run got, then kill it.
    const timer = setInterval(() => {
      if (!existsSync(journal)) return;
      const entries = (JSON.parse(readFileSync(journal, "utf8")) as { entries: JournalEntries }).entries;
      if (!killed && written(entries)) {
        killed = true;
        child.kill("SIGKILL");
      }
    }, 20);
    child.on("error", reject);
    child.on("close", (_code, signal) => {
      clearInterval(timer);
      if (signal === "SIGKILL") resolve();
      else reject(new Error(`the ingest ended by itself (${signal ?? _code}) before it was killed`));
    });
  });
}

describe("a killed apply (built CLI, SIGKILL)", () => {
  it.each([1, 2, 3])("is rolled back whole by the next command after %i file(s) were written", async (writes) => {
    const vault = makeVault({ [NOTE]: TEXT, "wiki/index.md": "# My index\n\nMine.\n" });
    const before = notes(vault);
    await killDuringApply(vault, writes);
    expect(notes(vault)).not.toEqual(before);
    expect(existsSync(join(vault, STATE, "journal", JOURNAL))).toBe(true);

    const history = await runCli(["history", "--vault", vault]);
    expect(history.code).toBe(0);
    expect(history.stderr).toMatch(/An interrupted ingest \(“Ada Lovelace”\) was rolled back/);
    expect(notes(vault)).toEqual(before);
    expect(Object.keys(snapshot(vault)).filter((p) => p.endsWith(".synapse-tmp") || p.includes("/locks/") || p.includes("journal/"))).toEqual([]);

    // And the vault works as before: the same ingest now completes.
    expect((await runCli(["ingest", NOTE, "--vault", vault, "--provider", "offline"])).code).toBe(0);
  });

  // index.md is journaled as the lines the run replaces and log.md as the text it appends: killed
  // right after either is written, the next command gives both back byte for byte.
  const INDEX = "# My index\r\n\r\nMine — keep.\r\n\r\n## Sources\r\n\r\n- [[wiki/sources/Zeta|Zeta]] my note\r\n\r\n## Concepts\r\n\r\n- [[wiki/concepts/Zeta|Zeta]]";
  const LOG = "# Synapse log\n\nMine.\n\n## [2026-11-01] ingest | Earlier\n\n- created [[wiki/concepts/Zeta|Zeta]]\n";
  it.each([
    ["index.md", (vault: string) => changedFrom(join(vault, "wiki/index.md"), INDEX)],
    ["log.md", (vault: string) => changedFrom(join(vault, "wiki/log.md"), LOG)],
  ] as const)("is rolled back to the exact bytes after %s was changed in place", async (_file, changed) => {
    const vault = makeVault({ [NOTE]: TEXT, "wiki/index.md": INDEX, "wiki/log.md": LOG, "wiki/concepts/Zeta.md": "# Zeta\n", "wiki/sources/Zeta.md": "# Zeta\n" });
    const before = notes(vault);
    await killWhen(vault, (entries) => entries.some((e) => e.kind === "lines") && changed(vault));
    expect(notes(vault)).not.toEqual(before);
    const journal = readFileSync(join(vault, STATE, "journal", JOURNAL), "utf8");
    // The journal holds the lines and the appended text, not copies of the files.
    expect(journal).not.toContain("Mine — keep.");
    expect(journal).not.toContain("## [2026-11-01] ingest | Earlier");

    const history = await runCli(["history", "--vault", vault]);
    expect(history.code).toBe(0);
    expect(history.stderr).toMatch(/An interrupted ingest \(“Ada Lovelace”\) was rolled back/);
    expect(notes(vault)).toEqual(before);
  });

  it("is rolled back whole, the registry of ingested notes included, when killed after a registry shard was written", async () => {
    const vault = makeVault({ [NOTE]: TEXT });
    const before = notes(vault);
    await killWhen(vault, (entries) => entries.some((e) => e.kind === "state" && e.key !== undefined && existsSync(join(vault, STATE, e.key))));
    expect(Object.keys(await recordedNotes(vault))).toEqual([NOTE]);

    const history = await runCli(["history", "--vault", vault]);
    expect(history.stderr).toMatch(/An interrupted ingest \(“Ada Lovelace”\) was rolled back/);
    expect(notes(vault)).toEqual(before);
    expect(await recordedNotes(vault)).toEqual({});
    expect(Object.keys(snapshot(vault)).filter((p) => p.startsWith(`${STATE}/sources/`))).toEqual([]);
    // Not taken for up to date: the same ingest runs again and records the note.
    const again = await runCli(["ingest", NOTE, "--vault", vault, "--provider", "offline", "--json"]);
    expect(JSON.parse(again.stdout)).toMatchObject({ upToDate: false });
    expect(Object.keys(await recordedNotes(vault))).toEqual([NOTE]);
  });

  // Commands that only read the wiki recover too: a search or a question must not find the pages of the half-written run.
  it.each([
    ["search", ["search", "Analytical Engine", "--json"]],
    ["index", ["index", "--json"]],
    ["query", ["query", "Who designed the Analytical Engine?", "--provider", "offline", "--json"]],
  ] as const)("is rolled back by %s before it reads the wiki", async (_command, args) => {
    const vault = makeVault({ [NOTE]: TEXT, "wiki/index.md": "# My index\n\nMine.\n" });
    const before = notes(vault);
    await killDuringApply(vault, 2);
    const written = Object.keys(notes(vault)).filter((p) => !(p in before));
    expect(written.length).toBeGreaterThan(0);

    const run = await runCli([...args, "--vault", vault]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/An interrupted ingest \(“Ada Lovelace”\) was rolled back/);
    expect(notes(vault)).toEqual(before);
    for (const page of written) expect(run.stdout).not.toContain(page.replace(/\.md$/, ""));
  });

  it("does not hold a search behind a live writer: it says so and reads the wiki as it stands", async () => {
    const vault = makeVault({ [NOTE]: TEXT });
    const { mkdirSync, writeFileSync } = await import("node:fs");
    // The plugin on this device (the CLI's in tests) holds the lock.
    mkdirSync(join(vault, STATE, "locks"), { recursive: true });
    const device = { id: TEST_DEVICE_ID, name: "this computer" };
    const lock = { version: 1, writer: { kind: "plugin", pid: null, host: null, device }, token: "x", activity: "ingest of “Other note”", started: Date.now(), heartbeat: Date.now() };
    writeFileSync(join(vault, STATE, "locks", JOURNAL), JSON.stringify(lock));
    // The writer's own wait would be a minute: a search waits for nothing.
    const run = await runCli(["search", "Analytical Engine", "--vault", vault, "--json"], { env: { SYNAPSE_LOCK_WAIT_SECONDS: "600" } });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("another writer is changing this vault, so no interrupted run was checked for");
    expect((JSON.parse(run.stdout) as { results: { path: string }[] }).results.map((r) => r.path)).toContain(NOTE);
  });

  it("removes temporary files a killed write left in the wiki folder", async () => {
    const vault = makeVault({ [NOTE]: TEXT, "wiki/concepts/Page.md.1a2b3c.synapse-tmp": "half a page" });
    expect((await runCli(["history", "--vault", vault])).stderr).toContain("1 leftover temporary file removed");
    expect(Object.keys(snapshot(vault)).filter((p) => p.endsWith(".synapse-tmp"))).toEqual([]);
  });
});

describe("two CLI writers on one vault", () => {
  it("the second waits for the first and both ingests land whole", async () => {
    const vault = makeVault({ [NOTE]: TEXT, "notes/Engine.md": "# Analytical Engine\n\nThe Analytical Engine of Charles Babbage. Ada Lovelace wrote about it.\n" });
    const slow = { SYNAPSE_TEST_APPLY_DELAY_MS: "150" };
    const [a, b] = await Promise.all([
      runCli(["ingest", NOTE, "--vault", vault, "--provider", "offline", "--json"], { env: slow, timeoutMs: 60_000 }),
      runCli(["ingest", "notes/Engine.md", "--vault", vault, "--provider", "offline", "--json"], { env: slow, timeoutMs: 60_000 }),
    ]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const index = readFileSync(join(vault, "wiki/index.md"), "utf8");
    for (const report of [a, b]) {
      for (const page of (JSON.parse(report.stdout) as { pages: { path: string }[] }).pages) expect(index).toContain(`[[${page.path.replace(/\.md$/, "")}|`);
    }
    const log = readFileSync(join(vault, "wiki/log.md"), "utf8");
    expect(log.match(/^## \[\d{4}-\d{2}-\d{2}\] ingest \| /gm)).toHaveLength(2);
    // Both notes are in the registry of ingested notes: neither writer lost the other's entry.
    expect(Object.keys(await recordedNotes(vault)).sort()).toEqual(["notes/Ada Lovelace.md", "notes/Engine.md"]);
  });

  it("with no time to wait, the second fails with a message naming the first, and writes nothing", async () => {
    const vault = makeVault({ [NOTE]: TEXT });
    // The plugin on this device (the CLI's in tests) holds the lock.
    const device = { id: TEST_DEVICE_ID, name: "this computer" };
    const lock = { version: 1, writer: { kind: "plugin", pid: null, host: null, device }, token: "x", activity: "ingest of “Other note”", started: Date.now(), heartbeat: Date.now() };
    const { mkdirSync, writeFileSync } = await import("node:fs");
    mkdirSync(join(vault, STATE, "locks"), { recursive: true });
    writeFileSync(join(vault, STATE, "locks", JOURNAL), JSON.stringify(lock));
    const before = notes(vault);
    const run = await runCli(["ingest", NOTE, "--vault", vault, "--provider", "offline"], { env: { SYNAPSE_LOCK_WAIT_SECONDS: "0" } });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/Another writer is changing this vault: the Synapse plugin in Obsidian, ingest of “Other note”, since \d\d:\d\d:\d\d UTC\. Nothing was written/);
    expect(notes(vault)).toEqual(before);
  });
});
