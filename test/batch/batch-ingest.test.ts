/**
 * `synapse ingest <folder> --batch` and `synapse batch collect` through the real SDK clients
 * against a scripted batch server that speaks each provider's protocol. Every CLI call is a new
 * invocation: what it knows of the batch it reads from the state folder.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BATCH_PRICE_FACTOR, estimateCost } from "../../src/core/pricing";
import { describeRequest, startBatchServer, type BatchProtocol, type BatchServer } from "../helpers/scripted-batch-server";
import { makeVault, snapshot } from "../helpers/temp-vault";
import { MODELS, backendFlags, batchIdIn, cli, ledger, notePath, notes, titleOf, validAnswer } from "./batch-fixtures";

let server: BatchServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function start(protocol: BatchProtocol, pollsToEnd = 2): Promise<BatchServer> {
  server = await startBatchServer({ protocol, answer: validAnswer, pollsToEnd });
  return server;
}

/**
 * Collects until the batch has nothing left to do (each call is a new process's worth of objects).
 * With `noneFail`, the first collect that leaves a note failed ends the test with that note's
 * reason, instead of collecting on through rounds that cannot land it.
 */
async function collectUntilSettled(vault: string, id: string, options: { noneFail?: boolean } = {}): Promise<string> {
  const limit = 12;
  let out = "";
  for (let i = 0; i < limit; i++) {
    const run = await cli(["batch", "collect", id, "--vault", vault]);
    expect(run.code, run.stderr).toBe(0);
    out += run.stdout;
    const status = await cli(["batch", "status", id, "--vault", vault, "--json"]);
    const batch = (JSON.parse(status.stdout) as { batches: { notes: Record<string, number>; open: unknown }[] }).batches[0];
    if (options.noneFail && (batch?.notes.failed ?? 0) > 0) throw new Error(`A note failed:\n${(await cli(["batch", "status", id, "--vault", vault])).stdout}`);
    if (batch && batch.notes.running === 0 && batch.open === null) return out;
  }
  throw new Error(`The batch did not settle in ${limit} collects:\n${out}`);
}

describe.each(["anthropic", "openai"] as const)("batch ingest through the %s batch API", (protocol) => {
  it("lands a folder of 100 notes whole, each note one run, at half the interactive price in the ledger", async () => {
    const s = await start(protocol, 3);
    const vault = makeVault(notes(100));
    const submit = await cli(["ingest", "notes", "--vault", vault, "--batch", ...backendFlags(protocol, s.url)]);
    expect(submit.code, submit.stderr).toBe(0);
    // The estimate comes first, both ways, the batch at half.
    const estimate = /interactively about \$([\d.]+), as a batch about \$([\d.]+)/.exec(submit.stderr);
    expect(estimate, submit.stderr).not.toBeNull();
    expect(Math.abs(Number(estimate?.[2]) - Number(estimate?.[1]) * BATCH_PRICE_FACTOR)).toBeLessThanOrEqual(0.01);
    // Round 1: every note's analysis, nothing written yet.
    expect(s.batches).toHaveLength(1);
    expect(s.batches[0]?.requests).toHaveLength(100);
    expect(Object.keys(snapshot(vault)).filter((p) => p.startsWith("wiki/"))).toEqual([]);
    const id = batchIdIn(submit.stdout);

    await collectUntilSettled(vault, id, { noneFail: true });
    const files = snapshot(vault);
    for (let i = 0; i < 100; i++) {
      const title = notePath(i).slice("notes/".length, -".md".length);
      expect(files[`wiki/sources/${title} (source).md`], title).toContain(notePath(i));
    }
    expect(s.interactive).toHaveLength(0);
    const spent = ledger(vault);
    expect(spent.entries).toBe(100);
    const interactive = estimateCost(MODELS[protocol], spent.inputTokens, spent.outputTokens) ?? 0;
    expect(spent.costUsd).toBeCloseTo(interactive * BATCH_PRICE_FACTOR, 3);
    const history = await cli(["history", "--vault", vault, "--json"]);
    expect(history.stdout.match(/"operation":"ingest"/g)?.length ?? (JSON.parse(history.stdout) as { runs: unknown[] }).runs.length).toBeGreaterThanOrEqual(20);
  }, 300_000);

  it("a collect before the batch ended waits, and a collect stopped between notes carries on whole", async () => {
    const s = await start(protocol, 4);
    const vault = makeVault(notes(6));
    const submit = await cli(["ingest", "notes", "--vault", vault, "--batch", ...backendFlags(protocol, s.url)]);
    const id = batchIdIn(submit.stdout);
    const early = await cli(["batch", "collect", id, "--vault", vault]);
    expect(early.code).toBe(0);
    expect(early.stdout).toMatch(/still .* at the provider/);
    // Round 1 ends; round 2 (the generations) goes out.
    for (let i = 0; i < 4 && s.batches.length < 2; i++) await cli(["batch", "collect", id, "--vault", vault]);
    expect(s.batches).toHaveLength(2);
    for (let i = 0; i < 4; i++) await cli(["batch", "status", id, "--vault", vault]);
    // Ctrl-C after the second note is written: the rest stay for the next collect.
    const stop = new AbortController();
    let applied = 0;
    const cut = await cli(["batch", "collect", id, "--vault", vault], {
      signal: stop.signal,
      onStderr: (text) => {
        if (/applied: /.test(text) && ++applied === 2) stop.abort();
      },
    });
    expect(cut.code).toBe(0);
    expect(ledger(vault).entries).toBe(2);
    await collectUntilSettled(vault, id);
    expect(ledger(vault).entries).toBe(6);
    // The cut collect sent nothing twice: each round's requests are new ones.
    const ids = s.batches.flatMap((b) => b.requests.map((r) => r.customId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("an expired batch and a partly failed one report each note, and --retry-failed ingests them interactively", async () => {
    const s = await start(protocol);
    const vault = makeVault(notes(4));
    // Round 1: note 0's analysis errors, note 1's expires.
    s.setAnswer((request) => {
      if (request.interactive || request.kind !== "analysis") return validAnswer(request);
      if (request.notePath === notePath(0)) return { kind: "errored", message: "prompt is too long" };
      if (request.notePath === notePath(1)) return { kind: "expired" };
      return validAnswer(request);
    });
    const id = batchIdIn((await cli(["ingest", "notes", "--vault", vault, "--batch", ...backendFlags(protocol, s.url)])).stdout);
    const out = await collectUntilSettled(vault, id);
    expect(out).toMatch(/2 applied, 2 failed/);
    const status = await cli(["batch", "status", id, "--vault", vault]);
    expect(status.stdout).toContain(`failed: ${notePath(0)} — `);
    expect(status.stdout).toMatch(/prompt is too long/);
    expect(status.stdout).toContain(`failed: ${notePath(1)} — The batch expired before this request was answered.`);
    expect(ledger(vault).entries).toBe(2);
    const retry = await cli(["batch", "collect", id, "--vault", vault, "--retry-failed"]);
    expect(retry.code, retry.stderr).toBe(0);
    expect(retry.stdout).toMatch(/4 applied/);
    expect(ledger(vault).entries).toBe(4);
    // Only what the batch did not answer went out interactively: the two analyses and their generations.
    expect(s.interactive.filter((r) => r.kind !== "same_subject").map((r) => `${r.kind} ${r.notePath}`).sort()).toEqual(
      [`analysis ${notePath(0)}`, `analysis ${notePath(1)}`, `pages ${notePath(0)}`, `pages ${notePath(1)}`].sort(),
    );
  });

  it("a note edited between submit and collect is reported and not overwritten", async () => {
    const s = await start(protocol);
    const vault = makeVault(notes(3));
    const id = batchIdIn((await cli(["ingest", "notes", "--vault", vault, "--batch", ...backendFlags(protocol, s.url)])).stdout);
    const edited = `${readFileSync(join(vault, notePath(2)), "utf8")}\nAn edit made while the batch ran.\n`;
    writeFileSync(join(vault, notePath(2)), edited);
    const out = await collectUntilSettled(vault, id);
    expect(out).toMatch(/2 applied, 1 changed/);
    expect(readFileSync(join(vault, notePath(2)), "utf8")).toBe(edited);
    expect(Object.keys(snapshot(vault)).filter((p) => p.startsWith("wiki/sources/"))).toEqual([`wiki/sources/${titleOf(0)} (source).md`, `wiki/sources/${titleOf(1)} (source).md`]);
    const status = await cli(["batch", "status", id, "--vault", vault]);
    expect(status.stdout).toContain(`changed: ${notePath(2)} — The note was edited since it was submitted`);
  });

  it("a round the provider refused to take is sent again by the next collect, nothing lost or sent twice", async () => {
    const s = await start(protocol);
    const vault = makeVault(notes(3));
    s.refuseNextCreate(529);
    const submit = await cli(["ingest", "notes", "--vault", vault, "--batch", ...backendFlags(protocol, s.url)]);
    expect(submit.code).toBe(4);
    expect(s.batches).toHaveLength(0);
    const status = await cli(["batch", "status", "--vault", vault, "--json"]);
    const [batch] = (JSON.parse(status.stdout) as { batches: { id: string; notes: Record<string, number>; rounds: number }[] }).batches;
    expect(batch).toMatchObject({ notes: { running: 3 }, rounds: 0 });
    await collectUntilSettled(vault, batch?.id ?? "");
    expect(s.batches[0]?.requests).toHaveLength(3);
    expect(ledger(vault).entries).toBe(3);
  });

  it("a round recorded but never acknowledged (the process died while sending it) is built and sent again", async () => {
    const s = await start(protocol);
    const vault = makeVault(notes(2));
    const id = batchIdIn((await cli(["ingest", "notes", "--vault", vault, "--batch", ...backendFlags(protocol, s.url)])).stdout);
    const file = join(vault, `.obsidian/plugins/synapse/state/batches/${id}.json`);
    const record = JSON.parse(readFileSync(file, "utf8")) as { rounds: { remoteId: string | null }[] };
    record.rounds[0]!.remoteId = null;
    writeFileSync(file, JSON.stringify(record));
    await collectUntilSettled(vault, id);
    expect(s.batches[1]?.requests.map((r) => r.customId)).toEqual(s.batches[0]?.requests.map((r) => r.customId));
    expect(ledger(vault).entries).toBe(2);
  });

  it("a cancelled batch reports its notes as failed, retried interactively", async () => {
    const s = await start(protocol, 5);
    const vault = makeVault(notes(2));
    const id = batchIdIn((await cli(["ingest", "notes", "--vault", vault, "--batch", ...backendFlags(protocol, s.url)])).stdout);
    const cancel = await cli(["batch", "cancel", id, "--vault", vault]);
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(s.batches[0]?.canceled).toBe(true);
    const out = await collectUntilSettled(vault, id);
    expect(out).toMatch(/2 failed/);
    const retry = await cli(["batch", "collect", id, "--vault", vault, "--retry-failed"]);
    expect(retry.stdout).toMatch(/2 applied/);
  });

  it("a result that fails validation is that note's failure, retried with the errors in the next round", async () => {
    const s = await start(protocol);
    const vault = makeVault(notes(2));
    let first = true;
    s.setAnswer((request) => {
      // Note 0's first generation cites no source: invalid, so its retry goes into round 3.
      if (request.kind === "pages" && request.notePath === notePath(0) && first) {
        first = false;
        return { kind: "text", text: JSON.stringify({ pages: [{ type: "source", title: titleOf(0), frontmatter: { sources: [], lang: "en", tags: [] }, content: "No source." }] }) };
      }
      return validAnswer(request);
    });
    const id = batchIdIn((await cli(["ingest", "notes", "--vault", vault, "--batch", ...backendFlags(protocol, s.url)])).stdout);
    await collectUntilSettled(vault, id);
    expect(ledger(vault).entries).toBe(2);
    // Round 1 the analyses, round 2 the generations, then note 0's retry carrying the validation errors.
    expect(s.batches.slice(0, 2).map((b) => b.requests.length)).toEqual([2, 2]);
    const retries = s.batches.slice(2).flatMap((b) => b.requests).filter((r) => describeRequest(r.body, false).kind === "pages");
    expect(retries.map((r) => describeRequest(r.body, false).notePath)).toEqual([notePath(0)]);
    expect(JSON.stringify(retries[0]?.body)).toMatch(/sources/);
    expect(readFileSync(join(vault, "wiki/log.md"), "utf8")).toContain(titleOf(0));
  });
});

describe("--batch with a backend that has no batch API", () => {
  it.each(["ollama", "offline"])("%s: a clear error, nothing sent or written", async (provider) => {
    const vault = makeVault(notes(1));
    const before = snapshot(vault);
    const run = await cli(["ingest", "notes", "--vault", vault, "--batch", "--provider", provider]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no batch API/);
    expect(snapshot(vault)).toEqual(before);
  });
});
