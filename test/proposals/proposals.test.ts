import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acceptProposal } from "../../src/proposals/accept";
import { proposeIngest } from "../../src/proposals/propose";
import { ProposalStore } from "../../src/proposals/proposal-store";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { NodeVault } from "../../src/vault/node-vault";
import type { WriteContext } from "../../src/write/apply";
import { ingestNote } from "../../src/wiki/ingest-note";
import { readHistory } from "../../src/write/run-history";
import { SOURCE_PATH, ScriptedProvider, aPage } from "../builders";
import { makeVault, readVaultFile, snapshot } from "../helpers/temp-vault";

const NOTE = "# Source note\n\nA note about the Example concept, written for tests.\n";
const PAGE = "wiki/concepts/Example concept.md";
const NOW = () => Date.UTC(2026, 10, 29, 12, 0);
const concept = (content: string) => aPage().titled("Example concept").withContent(content).build();

function setUp() {
  const root = makeVault({ [SOURCE_PATH]: NOTE });
  const store = new MemoryStateStore();
  const write: WriteContext = { store, writer: { kind: "cli", pid: null, host: null } };
  const deps = { vault: new NodeVault(root), settings: structuredClone(DEFAULT_SETTINGS), write, now: NOW };
  return { root, store, deps, proposals: new ProposalStore(store) };
}

describe("proposals", () => {
  it("propose writes nothing; accept plans the model's pages again, without a model, as one run in the history", async () => {
    const { root, store, deps, proposals } = setUp();
    const before = snapshot(root);
    const { proposal } = await proposeIngest({ ...deps, provider: new ScriptedProvider([[concept("Examples explain things.")]]) }, proposals, SOURCE_PATH, { proposedBy: "agent 1", now: NOW() });
    expect(proposal?.changes).toEqual([expect.objectContaining({ path: PAGE, action: "created", truncated: false })]);
    expect(snapshot(root)).toEqual(before);
    expect((await readHistory(store)).runs).toEqual([]);

    const outcome = await acceptProposal(deps, proposals, proposal!);
    expect(outcome).toMatchObject({ status: "applied", changes: [{ path: PAGE, action: "created" }] });
    expect(readVaultFile(root, PAGE)).toContain("Examples explain things.");
    expect((await readHistory(store)).runs.map((r) => r.operation)).toEqual(["ingest"]);
    expect((await proposals.list()).proposals).toEqual([]);
  });

  it("accepting keeps what the user wrote on a page after the proposal was made", async () => {
    const { root, deps, proposals } = setUp();
    await ingestNote({ ...deps, provider: new ScriptedProvider([[concept("Examples explain things.")]]) }, { notePath: SOURCE_PATH });
    const { proposal } = await proposeIngest({ ...deps, provider: new ScriptedProvider([[concept("Examples explain things well, and often.")]]) }, proposals, SOURCE_PATH, { proposedBy: null, now: NOW(), force: true });
    expect(proposal?.changes.map((c) => c.path)).toEqual([PAGE]);
    appendFileSync(join(root, PAGE), "\nMy own line, written after the proposal.\n");
    await acceptProposal(deps, proposals, proposal!);
    const page = readVaultFile(root, PAGE);
    expect(page).toContain("My own line, written after the proposal.");
    expect(page).toContain("Examples explain things well, and often.");
  });

  it("lists a damaged proposal as unreadable, keeps it, and refuses ids that are not ids", async () => {
    const { store, proposals } = setUp();
    await store.write("proposals/20261129-120000-abcdef12.json", "{ not json");
    expect(await proposals.list()).toEqual({ proposals: [], unreadable: ["proposals/20261129-120000-abcdef12.json"] });
    await expect(proposals.get("20261129-120000-abcdef12")).rejects.toMatchObject({ kind: "vault" });
    await expect(proposals.get("../journal/x")).rejects.toMatchObject({ kind: "input" });
    await expect(proposals.get("20261129-120000-00000000")).rejects.toMatchObject({ kind: "input", message: expect.stringContaining("No proposal") });
    expect(await store.read("proposals/20261129-120000-abcdef12.json")).toBe("{ not json");
  });
});
