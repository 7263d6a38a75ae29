import { describe, expect, it } from "vitest";
import { fixId } from "../../src/lint/fix-id";
import { checkWiki, type LintDeps } from "../../src/lint/run-lint";
import { acceptProposal } from "../../src/proposals/accept";
import { proposeLintFix } from "../../src/proposals/lint-fix-proposal";
import { ProposalStore } from "../../src/proposals/proposal-store";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import type { WriteContext } from "../../src/write/apply";
import { ingestNote } from "../../src/wiki/ingest-note";
import { readHistory } from "../../src/write/run-history";
import { undoLastRun } from "../../src/write/undo";
import { ScriptedProvider, aPage } from "../builders";

const NOW = () => Date.UTC(2026, 11, 2, 7, 0);
const NOTE = "notes/Bridge.md";
const USERS = "wiki/concepts/My page.md";
const FOG = "wiki/concepts/Fog.md";
const META = { proposedBy: "agent 1", now: NOW() };

/** Every file but log.md (an undo is written there too). */
async function files(vault: MemoryVault): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of await vault.list("")) if (path !== "wiki/log.md") out[path] = await vault.read(path);
  return out;
}

/** A wiki with a page that links to nothing ([[Fog]]: its fix is a stub page). */
async function wiki() {
  const vault = new MemoryVault({ [NOTE]: "# Bridge\n\nIt opened in 1937.\n" });
  const store = new MemoryStateStore();
  const write: WriteContext = { store, writer: { kind: "cli", pid: null, host: null } };
  const page = aPage().titled("Golden Gate Bridge").withSources(NOTE).withContent("It opened in 1937.").build();
  await ingestNote({ vault, write, provider: new ScriptedProvider([[page]]), settings: DEFAULT_SETTINGS, now: NOW }, { notePath: NOTE });
  await vault.create(USERS, "---\ntype: concept\ntitle: My page\nsources: [notes/Bridge.md]\n---\n\nSee [[Golden Gate Bridge]] and [[Fog]].\n");
  const deps: LintDeps = { vault, store, write, settings: DEFAULT_SETTINGS, now: NOW };
  return { vault, store, write, deps, proposals: new ProposalStore(store) };
}

async function idOf(deps: LintDeps, kind: string): Promise<string> {
  const { findings } = await checkWiki(deps);
  for (const f of findings) for (const x of f.fixes) if (x.kind === kind) return fixId(f, x);
  throw new Error(`no ${kind} fix`);
}

describe("a lint fix proposed by an agent", () => {
  it("is found by its id, staged without writing, and applied on accept as one lint run that undo takes back", async () => {
    const { vault, store, write, deps, proposals } = await wiki();
    const id = await idOf(deps, "create-stub");
    // The same finding gets the same id on every run.
    expect(await idOf(deps, "create-stub")).toBe(id);
    const before = await files(vault);

    const proposal = await proposeLintFix(deps, proposals, id, META);
    expect(proposal.payload).toMatchObject({ kind: "lint-fix", fixId: id, fixKind: "create-stub", page: USERS });
    expect(proposal.changes.map((c) => c.path)).toContain(FOG);
    expect(await files(vault)).toEqual(before);

    const outcome = await acceptProposal({ vault, settings: DEFAULT_SETTINGS, write, now: NOW }, proposals, (await proposals.list()).proposals[0]!);
    expect(outcome.status).toBe("applied");
    expect(outcome.changes.map((c) => c.path)).toContain(FOG);
    expect((await vault.stat(FOG)) !== null).toBe(true);
    expect((await readHistory(store)).runs.map((r) => r.operation).sort()).toEqual(["ingest", "lint"]);
    expect((await proposals.list()).proposals).toEqual([]);

    await undoLastRun(vault, write, { wikiFolder: "wiki" });
    expect(await files(vault)).toEqual(before);
  });

  it("is refused when no finding has the id, and when the fix needs a model", async () => {
    const { vault, deps, proposals } = await wiki();
    await expect(proposeLintFix(deps, proposals, "create-stub-0000000000000000", META)).rejects.toMatchObject({ kind: "input", message: expect.stringContaining("no fix") });
    await vault.process(NOTE, () => "# Bridge\n\nIt opened in 1937 and is orange.\n");
    const stale = await idOf(deps, "reingest");
    await expect(proposeLintFix(deps, proposals, stale, META)).rejects.toMatchObject({ kind: "input", message: expect.stringContaining("propose an ingest") });
    expect((await proposals.list()).proposals).toEqual([]);
  });

  it("accepted after the page was fixed by hand, is a clear error and keeps waiting", async () => {
    const { vault, write, deps, proposals } = await wiki();
    const proposal = await proposeLintFix(deps, proposals, await idOf(deps, "create-stub"), META);
    await vault.process(USERS, (text) => text.replace(" and [[Fog]]", ""));
    await expect(acceptProposal({ vault, settings: DEFAULT_SETTINGS, write, now: NOW }, proposals, proposal)).rejects.toMatchObject({ kind: "input", message: expect.stringContaining("no longer finds") });
    expect((await vault.stat(FOG)) !== null).toBe(false);
    expect((await proposals.list()).proposals.map((p) => p.id)).toEqual([proposal.id]);
  });

  it("leaves proposals written before lint fixes could be proposed readable", async () => {
    const store = new MemoryStateStore();
    const old = {
      version: 1,
      id: "20261129-120000-abcdef12",
      title: "Save answer: Who built it?",
      createdAt: "2026-11-29T12:00:00.000Z",
      proposedBy: null,
      payload: { kind: "answer", question: "Who built it?", answer: "Joseph Strauss.", citations: [], passages: [], consulted: [] },
      changes: [{ path: "wiki/syntheses/Who built it.md", action: "created", diff: "+x", truncated: false }],
    };
    await store.write("proposals/20261129-120000-abcdef12.json", JSON.stringify(old));
    expect((await new ProposalStore(store).list()).proposals).toEqual([old]);
  });
});
