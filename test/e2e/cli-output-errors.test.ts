/**
 * A closed pipe or a full disk ends the CLI with one clear line (none for a closed pipe, as Unix
 * tools do) and a non-zero exit, never a Node stack trace. Built CLI, real processes.
 */
import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, runCli } from "../helpers/run-cli";
import { makeVault, snapshot, tempDir } from "../helpers/temp-vault";

const HOOKS = new URL("../helpers/failing-disk-hooks.mjs", import.meta.url).pathname;
const NOTE = "notes/Ada Lovelace.md";
const TEXT = "# Ada Lovelace\n\nAda Lovelace wrote the first program for the [[Analytical Engine]] of Charles Babbage.\n";
const STACK = /^\s+at /m;

/** Runs the CLI with stdout sent to `stdout` (a pipe we close at once, or a file), and collects stderr. */
function spawnCli(args: readonly string[], stdout: "closed-pipe" | number, env: NodeJS.ProcessEnv = {}, nodeArgs: readonly string[] = []): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, CLI, ...args], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
      stdio: ["ignore", stdout === "closed-pipe" ? "pipe" : stdout, "pipe"],
    });
    // The reader goes away before the first result is printed.
    child.stdout?.destroy();
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

describe("the CLI's output going nowhere", () => {
  it("ends quietly with 141 when the reader of its output closed the pipe (synapse search … | head -1)", async () => {
    const vault = makeVault({ [NOTE]: TEXT });
    const run = await spawnCli(["search", "Ada Lovelace", "--vault", vault], "closed-pipe");
    expect(run.code).toBe(141);
    expect(run.stderr).not.toMatch(STACK);
    expect(run.stderr).not.toContain("EPIPE");
  });

  it("ends with one line and exit 1 when its output goes to a full disk", async () => {
    const vault = makeVault({ [NOTE]: TEXT });
    const out = join(tempDir("synapse-out-"), "out.txt");
    const fd = openSync(out, "w");
    const run = await spawnCli(["search", "Ada Lovelace", "--vault", vault], fd, { SYNAPSE_TEST_FULL_STDOUT: "1" }, ["--import", HOOKS]);
    closeSync(fd);
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(STACK);
    expect(run.stderr).toContain("Error: the output could not be written. Could not write: the disk is full (ENOSPC).\n");
    expect(readFileSync(out, "utf8")).toBe("");
  });
});

describe("a full disk under the vault", () => {
  it("ends an ingest with one sentence and exit 1 (could not write), not as a provider failure, and changes nothing", async () => {
    const vault = makeVault({ [NOTE]: TEXT });
    const before = snapshot(vault);
    const run = await runCli(["ingest", NOTE, "--vault", vault, "--provider", "offline"], { env: { SYNAPSE_TEST_FULL_DISK: vault }, nodeArgs: ["--import", HOOKS] });
    expect(run.code).toBe(1);
    expect(`${run.stdout}${run.stderr}`).toMatch(/Error \(vault\): Could not write \S.*: the disk is full \(ENOSPC\)\./);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(STACK);
    expect(Object.keys(snapshot(vault)).filter((p) => !p.startsWith(".obsidian/"))).toEqual(Object.keys(before).filter((p) => !p.startsWith(".obsidian/")));
  });

  it("ends an index with one sentence and exit 1", async () => {
    const vault = makeVault({ [NOTE]: TEXT });
    const run = await runCli(["index", "--vault", vault], { env: { SYNAPSE_TEST_FULL_DISK: vault }, nodeArgs: ["--import", HOOKS] });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^Error: Could not write \S.*: the disk is full \(ENOSPC\)\.$/m);
    expect(run.stderr).not.toMatch(STACK);
  });
});
