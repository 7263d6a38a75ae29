import { afterEach, describe, expect, it, vi } from "vitest";
import type { Modal } from "obsidian-test-mocks/obsidian";
import { ObsidianVault } from "../../src/obsidian/obsidian-vault";
import { pluginWriteContext } from "../../src/obsidian/write-context";
import type { Proposal } from "../../src/proposals/proposal";
import { ProposalStore } from "../../src/proposals/proposal-store";
import { proposeIngest } from "../../src/proposals/propose";
import { proposeLintFix } from "../../src/proposals/lint-fix-proposal";
import { fixId } from "../../src/lint/fix-id";
import { checkWiki, type LintDeps } from "../../src/lint/run-lint";
import { ConfirmModal } from "../../src/ui/confirm-modal";
import { ProposalSuggestModal } from "../../src/ui/proposal-suggest";
import { readHistory } from "../../src/write/run-history";
import type { WriteContext } from "../../src/write/write-context";
import { aPage, ScriptedProvider, SOURCE_PATH } from "../builders";
import { eventually } from "../helpers/eventually";
import { clickNotice, loadPlugin, MANIFEST, runCommand, type Harness } from "./plugin-harness";

afterEach(() => vi.restoreAllMocks());

const NOTE_TEXT = "# Source note\n\nA note about the Example concept.\n";
const PAGE = "wiki/concepts/Example concept.md";
const AT = Date.UTC(2026, 11, 2, 7, 15);

async function setUp(files: Record<string, string> = {}): Promise<{ harness: Harness; write: WriteContext; proposals: ProposalStore }> {
  const harness = await loadPlugin({ files: { [SOURCE_PATH]: NOTE_TEXT, ...files } });
  harness.app.workspace.setLayoutReady__();
  await harness.plugin.recovered;
  // The plugin's own state folder, where `synapse mcp` stages what agents propose.
  const write = await pluginWriteContext(harness.app.asOriginalType__(), MANIFEST);
  return { harness, write, proposals: new ProposalStore(write.store) };
}

/** What `synapse mcp`'s propose tool does: the ingest planned with a model, nothing written, staged. */
async function propose(harness: Harness, write: WriteContext, proposals: ProposalStore, content = "Examples explain things."): Promise<Proposal> {
  const deps = { vault: new ObsidianVault(harness.app.asOriginalType__()), provider: new ScriptedProvider([[aPage().titled("Example concept").withContent(content).build()]]), settings: harness.plugin.currentSettings, write };
  const { proposal } = await proposeIngest(deps, proposals, SOURCE_PATH, { proposedBy: "claude-code 2.0", now: AT, force: true });
  if (!proposal) throw new Error("nothing proposed");
  return proposal;
}

/** Runs the command and picks the proposal from its list, as the user would. */
async function pick(harness: Harness, proposal: Proposal): Promise<void> {
  const before = harness.opened.length;
  runCommand(harness, "review-proposals");
  await eventually(() => expect(harness.opened.slice(before).some((m) => m instanceof ProposalSuggestModal)).toBe(true));
  const list = harness.opened.slice(before).find((m) => m instanceof ProposalSuggestModal) as unknown as ProposalSuggestModal;
  const items = list.getSuggestions("");
  expect(items.map((p) => p.id)).toContain(proposal.id);
  const row = createDiv();
  list.renderSuggestion(proposal, row);
  expect(row.textContent).toContain("from claude-code 2.0");
  list.selectSuggestion(proposal, new MouseEvent("click"));
}

async function reviewWindow(harness: Harness): Promise<Modal> {
  await eventually(() => expect(harness.opened.at(-1)?.contentEl.classList.contains("synapse-review")).toBe(true));
  return harness.opened.at(-1) as Modal;
}

function click(modal: Modal, label: (text: string) => boolean): void {
  const button = [...modal.contentEl.querySelectorAll("button")].find((b) => label(b.textContent ?? ""));
  if (!button) throw new Error("no such button");
  button.click();
}

function exists(harness: Harness, path: string): boolean {
  return harness.app.vault.getFileByPath(path) !== null;
}

describe("proposals from agents, reviewed in Obsidian", () => {
  it("a staged ingest is listed, shown in the review window, applied as one run with the ingest's notice, and undone", async () => {
    const { harness, write, proposals } = await setUp();
    const proposal = await propose(harness, write, proposals);
    expect(exists(harness, PAGE)).toBe(false);

    await pick(harness, proposal);
    const review = await reviewWindow(harness);
    click(review, (t) => t.startsWith("Apply"));
    await eventually(() => expect(harness.notices.some((n) => n.startsWith('Synapse ingested "Source note": 1 page created'))).toBe(true));

    expect(await harness.read(PAGE)).toContain("Examples explain things.");
    expect((await readHistory(write.store)).runs.map((r) => r.operation)).toEqual(["ingest"]);
    expect((await proposals.list()).proposals).toEqual([]);
    expect([...(harness.noticeEls.at(-1)?.querySelectorAll("button") ?? [])].map((b) => b.textContent)).toEqual(["Show details", "Undo"]);
    clickNotice(harness, "Undo");
    await eventually(() => expect(exists(harness, PAGE)).toBe(false));
  });

  it("closing the review window and refusing removes the proposal and writes nothing; keeping it leaves it waiting", async () => {
    const { harness, write, proposals } = await setUp();
    const proposal = await propose(harness, write, proposals);

    await pick(harness, proposal);
    click(await reviewWindow(harness), (t) => t === "Cancel");
    await eventually(() => expect(harness.opened.at(-1)).toBeInstanceOf(ConfirmModal));
    click(harness.opened.at(-1) as Modal, (t) => t === "Keep it waiting");
    await eventually(() => expect(harness.notices).toContain(`"${proposal.title}" keeps waiting for your review.`));
    expect((await proposals.list()).proposals.map((p) => p.id)).toEqual([proposal.id]);

    await pick(harness, proposal);
    click(await reviewWindow(harness), (t) => t === "Cancel");
    await eventually(() => expect(harness.opened.at(-1)).toBeInstanceOf(ConfirmModal));
    click(harness.opened.at(-1) as Modal, (t) => t === "Refuse");
    await eventually(() => expect(harness.notices).toContain(`Refused "${proposal.title}"; nothing was written.`));
    expect((await proposals.list()).proposals).toEqual([]);
    expect(exists(harness, PAGE)).toBe(false);
    expect((await readHistory(write.store)).runs).toEqual([]);
  });

  it("a proposal whose note is gone is a clear notice, and it keeps waiting until refused", async () => {
    const { harness, write, proposals } = await setUp();
    const proposal = await propose(harness, write, proposals);
    const note = harness.app.vault.getFileByPath(SOURCE_PATH);
    if (note) await harness.app.fileManager.trashFile(note);

    await pick(harness, proposal);
    await eventually(() => expect(harness.notices.some((n) => n.startsWith(`Synapse could not apply "${proposal.title}":`) && n.endsWith("The proposal keeps waiting."))).toBe(true));
    expect((await proposals.list()).proposals.map((p) => p.id)).toEqual([proposal.id]);
    expect(exists(harness, PAGE)).toBe(false);
    clickNotice(harness, "Refuse it");
    await eventually(async () => expect((await proposals.list()).proposals).toEqual([]));
  });

  it("announces proposals once each: those waiting at load, then each one an agent leaves while Obsidian is open", async () => {
    const { harness, write, proposals } = await setUp();
    const service = harness.plugin.proposals;
    if (!service) throw new Error("no service");
    await service.check();
    const quiet = harness.notices.length;
    await propose(harness, write, proposals);
    await service.check();
    expect(harness.notices.slice(quiet)).toEqual(["Synapse: an agent proposed a change to the wiki: Ingest notes/Source note.md (from claude-code 2.0)."]);
    await service.check();
    await service.check();
    expect(harness.notices.length).toBe(quiet + 1);

    // Obsidian opened again: what still waits is named once, at load.
    const again = await loadPlugin({ app: harness.app });
    again.app.workspace.setLayoutReady__();
    await eventually(() => expect(again.notices).toContain("Synapse: 1 proposal from agents is waiting for your review."));
    await again.plugin.proposals?.check();
    expect(again.notices.filter((n) => n.includes("proposal"))).toHaveLength(1);
  });

  it("a proposed lint fix is listed and applied the same way, as one lint run", async () => {
    const { harness, write, proposals } = await setUp({ "wiki/concepts/My page.md": "---\ntype: concept\ntitle: My page\nsources: [notes/Source note.md]\n---\n\nSee [[Fog]].\n" });
    const deps: LintDeps = { vault: new ObsidianVault(harness.app.asOriginalType__()), settings: harness.plugin.currentSettings, store: write.store, write };
    const { findings } = await checkWiki(deps);
    const finding = findings.find((f) => f.fixes.some((x) => x.kind === "create-stub"));
    const fix = finding?.fixes.find((x) => x.kind === "create-stub");
    if (!finding || !fix) throw new Error("no stub fix");
    const proposal = await proposeLintFix(deps, proposals, fixId(finding, fix), { proposedBy: "claude-code 2.0", now: AT });

    await pick(harness, proposal);
    const review = await reviewWindow(harness);
    expect(review.contentEl.textContent).toContain("Fog");
    click(review, (t) => t.startsWith("Apply"));
    await eventually(() => expect(harness.notices.some((n) => n.startsWith(`Synapse applied "${proposal.title}"`))).toBe(true));
    expect(exists(harness, "wiki/concepts/Fog.md")).toBe(true);
    expect((await readHistory(write.store)).runs.map((r) => r.operation)).toEqual(["lint"]);
    expect((await proposals.list()).proposals).toEqual([]);
  });

  it("says so when no proposal waits", async () => {
    const { harness } = await setUp();
    runCommand(harness, "review-proposals");
    await eventually(() => expect(harness.notices).toContain("No proposals from agents are waiting."));
  });
});
