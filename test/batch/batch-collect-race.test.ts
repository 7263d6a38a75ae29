/**
 * Two collectors of one batch at once (two terminals, or Obsidian and a terminal): the batch's lock
 * lets one work and stops the other with a sentence, so no round is taken in or sent twice and
 * each note's pages are applied once. The first collector is held at the results download by the
 * scripted server, so the two overlap on every run of the test, whatever the machine's speed.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startBatchServer, type BatchProtocol, type BatchServer } from "../helpers/scripted-batch-server";
import { makeVault } from "../helpers/temp-vault";
import { backendFlags, batchIdIn, cli, ledger, notes, validAnswer } from "./batch-fixtures";

let server: BatchServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** A collect held at the results download, a second collect meanwhile, then the first let go. */
async function overlap(s: BatchServer, vault: string, id: string) {
  const gate = s.holdNextResults();
  const first = cli(["batch", "collect", id, "--vault", vault]);
  await gate.reached;
  const second = await cli(["batch", "collect", id, "--vault", vault]);
  gate.release();
  return { first: await first, second };
}

describe.each(["anthropic", "openai"] as const)("two collectors of one %s batch", (protocol: BatchProtocol) => {
  it("the second stops at once saying another Synapse is collecting; each round goes out once and each note is applied once", async () => {
    const s = await startBatchServer({ protocol, answer: validAnswer, pollsToEnd: 1 });
    server = s;
    const vault = makeVault(notes(3));
    const id = batchIdIn((await cli(["ingest", "notes", "--vault", vault, "--batch", ...backendFlags(protocol, s.url)])).stdout);

    // Round 1 (the analyses) is taken in by one collector, which sends round 2.
    const analyses = await overlap(s, vault, id);
    expect(analyses.first.code, analyses.first.stderr).toBe(0);
    expect(analyses.second.code).toBe(1);
    expect(analyses.second.stderr).toContain(`Another Synapse is collecting this batch (${id}) or cancelling it: the Synapse command line`);
    expect(analyses.second.stderr).toContain(`collect of batch ${id}`);
    expect(s.batches).toHaveLength(2);

    // Round 2 (the pages): one collector applies them, one run per note.
    const pages = await overlap(s, vault, id);
    expect(pages.first.code, pages.first.stderr).toBe(0);
    expect(pages.first.stdout).toContain("3 applied");
    expect(pages.second.code).toBe(1);
    expect(pages.second.stderr).toMatch(/Another Synapse is collecting this batch/);
    expect(s.batches).toHaveLength(2);
    expect(ledger(vault).entries).toBe(3);
    const history = JSON.parse((await cli(["history", "--vault", vault, "--json"])).stdout) as { runs: unknown[] };
    expect(history.runs).toHaveLength(3);

    // Once the first is done, the lock is free again: a later collect finds nothing left to do.
    const after = await cli(["batch", "collect", id, "--vault", vault]);
    expect(after.code, after.stderr).toBe(0);
    expect(ledger(vault).entries).toBe(3);
  });
});
