/** The bridge rolls back a run a crash interrupted before it serves anything from the vault. */
import { existsSync, readFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { QueryFunction } from "../../src/bridge/agent";
import { startBridgeServer, type BridgeServer } from "../../src/bridge/server";
import { NodeStateStore } from "../../src/vault/node-state-store";
import { NodeVault } from "../../src/vault/node-vault";
import { applyPlan, type PlannedChange } from "../../src/write/apply";
import { nodeDevice } from "../../src/vault/device-id";
import { vaultIdOf } from "../../src/write/vault-id";
import type { WriterIdentity } from "../../src/write/write-records";
import { journalKeyOf, lockKeyOf } from "../../src/write/writer-device";
import { cliEnv } from "../helpers/run-cli";
import { ingestEvents } from "../helpers/bridge-client";
import { makeVault, NOTE_PATH, type TestVault } from "../helpers/bridge-fixtures";
import { fakeAgent } from "../helpers/fake-agent-query";

const TOKEN = "test-token-0123456789abcdef";
/** Above Linux's largest pid (2^22): no process has it, so its lock is a dead writer's. */
const DEAD_PID = 99_999_999;
/** The bridge and the killed CLI run on one device: the test device (see run-cli.ts). */
const DEVICE_ENV = { SYNAPSE_DEVICE_ID_FILE: cliEnv().SYNAPSE_DEVICE_ID_FILE };
const device = nodeDevice(DEVICE_ENV);
const KILLED: WriterIdentity = { kind: "cli", pid: DEAD_PID, host: hostname(), ...(device ? { device } : {}) };
const JOURNAL_KEY = journalKeyOf(KILLED);
const OLD = "wiki/concepts/Old.md";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function aVault(): TestVault {
  const vault = makeVault();
  cleanups.push(vault.dispose);
  vault.write(OLD, "old words\n");
  return vault;
}

/** A CLI ingest killed after its first write: the journal and a dead writer's lock are left behind. Returns the vault as it was before. */
async function interrupt(vault: TestVault): Promise<Map<string, string>> {
  const store = NodeStateStore.forVault(vault.root);
  // The vault's id is made once, by its first run: part of the vault as it was before.
  await vaultIdOf(store);
  const before = vault.snapshot();
  const changes: PlannedChange[] = [
    { path: OLD, type: "concept", title: "Old", action: "updated", update: () => ({ content: "half-written\n", action: "updated" }) },
    { path: "wiki/concepts/New.md", type: "concept", title: "New", action: "created", create: "new\n" },
  ];
  const crash = new Error("killed");
  await applyPlan(new NodeVault(vault.root), changes, {
    store,
    writer: KILLED,
    operation: "ingest",
    label: "Note",
    wikiFolder: "wiki",
    // An exception here is not a write failure: like a kill, it skips the rollback.
    afterEachWrite: () => Promise.reject(crash),
  }).catch((error: unknown) => {
    if (error !== crash) throw error;
  });
  const lock = { version: 1, writer: KILLED, token: "dead", activity: "ingest of “Note”", started: Date.now(), heartbeat: Date.now() };
  await store.write(lockKeyOf(KILLED), JSON.stringify(lock));
  expect(readFileSync(join(vault.root, OLD), "utf8")).toBe("half-written\n");
  expect(await store.read(JOURNAL_KEY)).not.toBeNull();
  return before;
}

async function start(vault: TestVault, query: QueryFunction, log: string[] = []): Promise<BridgeServer> {
  const bridge = await startBridgeServer({
    vaults: [vault.root],
    token: TOKEN,
    port: 0,
    version: "test",
    env: { ANTHROPIC_API_KEY: "sk-ant-test", ...DEVICE_ENV },
    loadQuery: () => Promise.resolve(query),
    log: (line) => log.push(line),
  });
  cleanups.push(() => bridge.close());
  return bridge;
}

describe("recovery in the bridge", () => {
  it("rolls back an interrupted run of every vault it serves when it starts, and says so", async () => {
    const vault = aVault();
    const before = await interrupt(vault);
    const log: string[] = [];
    await start(vault, fakeAgent({ steps: [] }).query, log);
    expect(vault.snapshot()).toEqual(before);
    expect(existsSync(join(vault.root, ".obsidian/plugins/synapse/state", JOURNAL_KEY))).toBe(false);
    expect(log.some((line) => line.includes("An interrupted ingest (“Note”) was rolled back"))).toBe(true);
  });

  it("rolls back a run interrupted after it started, before staging the vault for the agent", async () => {
    const vault = aVault();
    const agent = fakeAgent({ steps: [] });
    let staged: string | null = null;
    const query: QueryFunction = (params) => {
      // What the agent would read of the page: the staging copy, made after recovery.
      const path = join(params.options?.cwd ?? "", ...OLD.split("/"));
      staged = existsSync(path) ? readFileSync(path, "utf8") : null;
      return agent.query(params);
    };
    const bridge = await start(vault, query);
    // A CLI is killed mid-apply while the bridge runs.
    const before = await interrupt(vault);
    const result = await ingestEvents(bridge.url, TOKEN, { vault: vault.root, notePath: NOTE_PATH, wikiFolder: "wiki", maxTurns: 3, maxBudgetUsd: 0.5 });
    expect(result.events.map((e) => e.type)).toContain("result");
    expect(staged).toBe("old words\n");
    expect(vault.snapshot()).toEqual(before);
  });
});
