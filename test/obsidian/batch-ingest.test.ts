/**
 * Batch ingest from Obsidian, through the real plugin on the Obsidian mocks and the real SDK
 * clients against the scripted batch server (requestUrl over Node's http, Node's stream for the
 * interactive retries): the folder ingest's choice with the estimate both ways, the batch sent, the
 * notice when its results are in, and "Collect batch results" putting each note through the review
 * window and the journal as one run — for an ended batch, and for one whose requests partly
 * failed or expired, retried interactively from the notice.
 */
import type { TFolder } from "obsidian";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createRequestUrlFetch } from "../../src/obsidian/request-url-fetch";
import { createNodeFetch } from "../../src/providers/transports/node-fetch";
import { ConfirmModal } from "../../src/ui/confirm-modal";
import type { FolderSuggestModal } from "../../src/ui/folder-suggest";
import { acquireBatchLock } from "../../src/batch/batch-lock";
import { readHistory } from "../../src/write/run-history";
import { notePath, notes, titleOf, validAnswer } from "../batch/batch-fixtures";
import { eventually } from "../helpers/eventually";
import { startBatchServer, type BatchServer } from "../helpers/scripted-batch-server";
import { settingsFor, testSecrets } from "../providers/harness";
import { nodeRequestUrl } from "./node-request-url";
import { clickNotice, loadPlugin, runCommand, type Harness } from "./plugin-harness";

let server: BatchServer | null = null;
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
  server = null;
});

const source = (i: number) => `wiki/sources/${titleOf(i)} (source).md`;

async function start(reviewMode: "changes" | "always" = "changes", pollsToEnd = 2): Promise<{ s: BatchServer; harness: Harness }> {
  const s = await startBatchServer({ protocol: "anthropic", answer: validAnswer, pollsToEnd });
  server = s;
  const harness = await loadPlugin({
    files: notes(3),
    data: { ...settingsFor("anthropic", s.url), reviewMode },
    seams: { batchEnvironment: (env) => ({ ...env, secrets: testSecrets(), fetch: createRequestUrlFetch(nodeRequestUrl()), streamingFetch: createNodeFetch() }) },
  });
  await harness.plugin.recovered;
  return { s, harness };
}

/** "Ingest notes in folder…" on notes/, answered with the button named `answer`. */
async function ingestFolder(harness: Harness, answer: string | null): Promise<{ modal: ConfirmModal; shown: HTMLElement }> {
  runCommand(harness, "ingest-folder");
  const picker = harness.opened.at(-1) as unknown as FolderSuggestModal;
  const folder = picker.getItems().find((f: TFolder) => f.path === "notes");
  if (!folder) throw new Error("No notes folder");
  picker.onChooseItem(folder);
  await eventually(() => expect(harness.opened.at(-1)).toBeInstanceOf(ConfirmModal));
  const modal = harness.opened.at(-1) as unknown as ConfirmModal;
  // What it showed, kept before closing it empties the window.
  const shown = harness.modals.at(-1) as HTMLElement;
  if (answer === null) modal.close();
  else [...modal.contentEl.querySelectorAll("button")].find((b) => b.textContent === answer)?.click();
  return { modal, shown };
}

function batches(harness: Harness) {
  const service = harness.plugin.batches;
  if (!service) throw new Error("No batch service");
  return service;
}

/** Sends notes/ as a batch and waits until round 1 is at the server. */
async function sendBatch(s: BatchServer, harness: Harness): Promise<void> {
  await ingestFolder(harness, "Send as a batch");
  await eventually(() => expect(harness.notices.at(-1)).toMatch(/^Sent 3 notes from "notes" as a batch to Anthropic/));
  expect(s.batches).toHaveLength(1);
}

/** Looks at the batches until the notice says results are in, then clicks its Collect and waits for the collect. */
async function collectWhenIn(harness: Harness, notes: number): Promise<void> {
  const before = harness.notices.length;
  await batches(harness).check();
  if (!harness.notices.slice(before).some((n) => n.startsWith("Batch results are in"))) await batches(harness).check();
  expect(harness.notices.at(-1)).toBe(`Batch results are in for ${notes} note${notes === 1 ? "" : "s"}.`);
  clickNotice(harness, "Collect");
  await batches(harness).settled();
}

describe("batch ingest in Obsidian", () => {
  it("asks 'Ingest now' or 'Send as a batch' with the estimate both ways; closing sends nothing", async () => {
    const { s, harness } = await start();
    const { modal, shown } = await ingestFolder(harness, null);
    expect(modal.titleEl.textContent).toBe("Ingest 3 notes now or as a batch?");
    expect(shown.querySelector("p")?.textContent).toMatch(/^3 notes from "notes": about [\d,]+ tokens in and [\d,]+ out with claude-haiku-4-5\.$/);
    const [now = "", batch = ""] = [...shown.querySelectorAll("li")].map((li) => li.textContent ?? "");
    const usd = (text: string) => Number(/about \$([\d.]+)/.exec(text)?.[1]);
    expect(now).toMatch(/^Ingest now: about \$[\d.]+; pages as each note is done\.$/);
    expect(batch).toMatch(/^Send as a batch: about \$[\d.]+; results within hours\./);
    expect(usd(batch)).toBeCloseTo(usd(now) / 2, 3);
    const buttons = [...shown.querySelectorAll(".modal-button-container button")].map((b) => [b.textContent, b.classList.contains("mod-cta")]);
    expect(buttons).toEqual([
      ["Send as a batch", true],
      ["Ingest now", false],
      ["Cancel", false],
    ]);
    await harness.plugin.ingest?.settled();
    expect(s.batches).toHaveLength(0);
    expect(s.interactive).toHaveLength(0);
    expect(harness.notices.filter((n) => n.startsWith("Queued"))).toEqual([]);
  });

  it("sends the batch, says when its results are in, and collects each note through the review window as one run", async () => {
    const { s, harness } = await start("always");
    await sendBatch(s, harness);
    expect(s.batches[0]?.requests).toHaveLength(3);
    // Still running at the provider: no notice yet, and the status command says where it is.
    const before = harness.notices.length;
    await batches(harness).check();
    expect(harness.notices.slice(before)).toEqual([]);
    runCommand(harness, "show-batch-status");
    await eventually(() => expect(harness.notices.at(-1)).toMatch(/^Batch ingests: "notes" with Anthropic \(claude-haiku-4-5\): 3 running; /));

    // Round 1 (the analyses) is in: collecting it sends round 2 (the pages); nothing written yet.
    await collectWhenIn(harness, 3);
    expect(harness.notices.at(-1)).toMatch(/The next round went out \(3 requests\)/);
    expect(s.batches).toHaveLength(2);
    expect(harness.app.vault.getFileByPath(source(0))).toBeNull();

    // Round 2 is in: each note's pages are shown in the review window, then applied.
    const opened = harness.opened.length;
    const collect = collectWhenIn(harness, 3);
    for (let i = 0; i < 3; i++) {
      await eventually(() => expect(harness.opened.length).toBe(opened + i + 1));
      const review = harness.opened.at(-1);
      expect(review?.contentEl.classList.contains("synapse-review")).toBe(true);
      [...(review?.contentEl.querySelectorAll("button") ?? [])].find((b) => b.textContent?.startsWith("Apply"))?.click();
    }
    await collect;
    expect(harness.notices.at(-1)).toBe('Batch of 3 notes from "notes": 3 applied.');
    for (let i = 0; i < 3; i++) expect(await harness.read(source(i))).toContain(notePath(i));
    // One run per note in the journal's history, at the batch price.
    const plugin = harness.plugin as unknown as { ingest: { acceptDeps(): Promise<{ write?: { store: Parameters<typeof readHistory>[0] } }> } };
    const store = (await plugin.ingest.acceptDeps()).write?.store;
    if (!store) throw new Error("No state store");
    expect((await readHistory(store)).runs.filter((r) => r.operation === "ingest")).toHaveLength(3);
    expect(s.interactive).toHaveLength(0);
    // Nothing is left: the next look announces nothing.
    const after = harness.notices.length;
    await batches(harness).check();
    expect(harness.notices.slice(after)).toEqual([]);
  });

  it("shows a batch that is out in the status bar, and a click there collects its results once they are in", async () => {
    const { s, harness } = await start("changes", 1);
    const item = harness.registered.statusBarItems__[2] as HTMLElement;
    expect(item.hasClass("synapse-status-idle")).toBe(true);
    await sendBatch(s, harness);
    await eventually(() => expect(item.textContent).toBe("Synapse: batch · 3 notes"));
    expect(item.hasClass("synapse-status-idle")).toBe(false);
    // The look at the batches learns that round 1 ended at the provider.
    await batches(harness).check();
    expect(item.textContent).toBe("Synapse: batch results in");
    const sent = s.batches.length;
    item.click();
    await eventually(() => expect(s.batches.length).toBe(sent + 1));
    await batches(harness).settled();
    // Round 2 is out now: the item says so again, until its results are collected.
    expect(item.textContent).toBe("Synapse: batch · 3 notes");
    await batches(harness).check();
    item.click();
    await batches(harness).settled();
    await eventually(() => expect(harness.notices.at(-1)).toBe('Batch of 3 notes from "notes": 3 applied.'));
    expect(item.textContent).toBe("");
    expect(item.hasClass("synapse-status-idle")).toBe(true);
  });

  it("a partly failed and expired batch says which notes failed, and 'Retry failed' ingests them interactively", async () => {
    const { s, harness } = await start("changes", 1);
    s.setAnswer((request) => {
      if (request.interactive || request.kind !== "analysis") return validAnswer(request);
      if (request.notePath === notePath(0)) return { kind: "errored", message: "prompt is too long" };
      if (request.notePath === notePath(1)) return { kind: "expired" };
      return validAnswer(request);
    });
    await sendBatch(s, harness);
    await collectWhenIn(harness, 3);
    expect(harness.notices.at(-1)).toMatch(/^Batch of 3 notes from "notes": 1 running, 2 failed\. The next round went out \(1 request\);/);
    expect(harness.notices.at(-1)).toContain('"Retry failed" ingests the failed notes now, interactively, at the usual price.');
    await collectWhenIn(harness, 1);
    expect(harness.notices.at(-1)).toMatch(/^Batch of 3 notes from "notes": 1 applied, 2 failed\./);
    expect(harness.app.vault.getFileByPath(source(2))).not.toBeNull();
    expect(harness.app.vault.getFileByPath(source(0))).toBeNull();

    clickNotice(harness, "Retry failed");
    await batches(harness).settled();
    expect(harness.notices.at(-1)).toBe('Batch of 3 notes from "notes": 3 applied.');
    for (let i = 0; i < 3; i++) expect(harness.app.vault.getFileByPath(source(i))).not.toBeNull();
    // Only what the batch did not answer went out interactively.
    expect(s.interactive.filter((r) => r.kind !== "same_subject").map((r) => `${r.kind} ${r.notePath}`).sort()).toEqual(
      [`analysis ${notePath(0)}`, `analysis ${notePath(1)}`, `pages ${notePath(0)}`, `pages ${notePath(1)}`].sort(),
    );
  });

  it("a collect while a terminal holds the batch says another Synapse is collecting it, and takes nothing in", async () => {
    const { s, harness } = await start("changes", 1);
    await sendBatch(s, harness);
    const [record] = (await batches(harness).batches.list()).records;
    if (!record) throw new Error("No batch recorded");
    const write = (harness.plugin as unknown as { batches: { deps: { write: Parameters<typeof acquireBatchLock>[0] } } }).batches.deps.write;
    // The command line on this device, alive, collecting the same batch.
    const terminal = await acquireBatchLock({ ...write, writer: { ...write.writer, kind: "cli", pid: 4242, host: "laptop" } }, record.id, "collect");
    runCommand(harness, "collect-batch-results");
    await batches(harness).settled();
    expect(harness.notices.at(-1)).toMatch(/^Synapse could not collect the batch from "notes": Another Synapse is collecting this batch \([\w-]+\) or cancelling it: the Synapse command line \(process 4242 on laptop\)/);
    expect(s.batches).toHaveLength(1);
    expect((await batches(harness).batches.get(record.id)).rounds[0]?.collectedAt).toBeNull();
    await terminal.release();
    runCommand(harness, "collect-batch-results");
    await batches(harness).settled();
    expect(s.batches).toHaveLength(2);
  });

  it("'Ingest now' queues the folder as an ordinary folder ingest, sending no batch", async () => {
    const { s, harness } = await start();
    await ingestFolder(harness, "Ingest now");
    await eventually(() => expect(harness.notices).toContain('Queued 3 notes from "notes".'));
    await harness.plugin.ingest?.settled();
    expect(s.batches).toHaveLength(0);
  });

  it("without a batch API (Offline) the folder is queued at once, as before", async () => {
    const harness = await loadPlugin({ files: notes(2) });
    runCommand(harness, "ingest-folder");
    const picker = harness.opened.at(-1) as unknown as FolderSuggestModal;
    const folder = picker.getItems().find((f: TFolder) => f.path === "notes");
    if (!folder) throw new Error("No notes folder");
    picker.onChooseItem(folder);
    await eventually(() => expect(harness.notices[0]).toBe('Queued 2 notes from "notes".'));
    await harness.plugin.ingest?.settled();
    expect(harness.opened.some((m) => m instanceof ConfirmModal)).toBe(false);
  });
});
