/**
 * The built CLI (`node dist/cli.mjs`) carrying a batch ingest across processes: submitted by one,
 * collected by others, one of them killed (SIGKILL, no chance to tidy up) after it wrote its first
 * note. Each process knows the batch only from the state folder.
 */
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, cliEnv, runCli } from "../helpers/run-cli";
import { startBatchServer, type BatchServer } from "../helpers/scripted-batch-server";
import { makeVault, snapshot } from "../helpers/temp-vault";
import { KEYS, backendFlags, batchIdIn, ledger, notes, validAnswer } from "../batch/batch-fixtures";

let server: BatchServer;
beforeAll(async () => {
  server = await startBatchServer({ protocol: "anthropic", answer: validAnswer, pollsToEnd: 1 });
});
afterAll(() => server.close());

/** Runs a collect and kills it with SIGKILL once it has written its first note. */
function collectKilledAfterFirstNote(vault: string, id: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "batch", "collect", id, "--vault", vault], { env: cliEnv(KEYS), stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      if (/applied: /.test(stderr)) child.kill("SIGKILL");
    });
    child.on("error", reject);
    child.on("close", () => resolve(stderr));
  });
}

describe("synapse batch across processes (built CLI)", () => {
  it("a batch submitted by one process lands whole through others, one killed between two notes", async () => {
    const vault = makeVault(notes(4));
    const submit = await runCli(["ingest", "notes", "--vault", vault, "--batch", ...backendFlags("anthropic", server.url)], { env: KEYS });
    expect(submit.code, submit.stderr).toBe(0);
    expect(submit.stderr).toMatch(/as a batch about \$/);
    const id = batchIdIn(submit.stdout);
    // Round 1 ends at the first poll; this collect sends round 2 (the generations).
    const second = await runCli(["batch", "collect", id, "--vault", vault], { env: KEYS });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain("Round 2 sent: 4 requests");
    const killed = await collectKilledAfterFirstNote(vault, id);
    expect(killed).toMatch(/applied: /);
    const written = ledger(vault).entries;
    expect(written).toBeGreaterThanOrEqual(1);
    expect(written).toBeLessThan(4);
    const last = await runCli(["batch", "collect", id, "--vault", vault], { env: KEYS });
    expect(last.code, last.stderr).toBe(0);
    expect(last.stdout).toContain("4 applied");
    expect(ledger(vault).entries).toBe(4);
    const status = await runCli(["batch", "status", "--vault", vault, "--json"], { env: KEYS });
    const [batch] = (JSON.parse(status.stdout) as { batches: { id: string; notes: Record<string, number>; open: unknown }[] }).batches;
    expect(batch).toMatchObject({ id, notes: { applied: 4, running: 0, failed: 0 }, open: null });
    // Every note's ingest is one run: undo takes back the last note's page alone.
    const sources = () => Object.keys(snapshot(vault)).filter((p) => p.startsWith("wiki/sources/"));
    expect(sources()).toHaveLength(4);
    const undo = await runCli(["undo", "--vault", vault, "--json"], { env: KEYS });
    expect(undo.code, undo.stderr).toBe(0);
    expect(sources()).toHaveLength(3);
  }, 300_000);
});
