import { afterEach, describe, expect, it, vi } from "vitest";
import { SynapseError } from "../../src/core/errors";
import type { RunContext } from "../../src/core/run-context";
import type { WikiPage } from "../../src/core/schemas";
import { aPage, ScriptedProvider } from "../builders";
import { eventually } from "../helpers/eventually";
import { clickNotice, loadPlugin, runCommand, type Harness } from "./plugin-harness";

afterEach(() => vi.restoreAllMocks());

const QUEUE = ".obsidian/plugins/synapse/state/queue.json";
const FILES = {
  "Inbox/Ants.md": "# Ants\n\nAnts live in colonies.",
  "Inbox/Bees.md": "# Bees\n\nBees make honey.",
  "Inbox/Wasps.md": "# Wasps\n\nWasps sting.",
};

/** Writes one page per note, fails the notes `fails` names, and holds the notes `hold` names until cancelled. */
function provider(options: { hold?: (path: string) => boolean; fails?: (path: string) => boolean } = {}): ScriptedProvider {
  return new ScriptedProvider([
    (run: RunContext): Promise<WikiPage[]> => {
      const source = run.source?.path ?? "";
      const name = source.replace(/\.md$/, "").split("/").pop() ?? "";
      if (options.fails?.(source)) return Promise.reject(new SynapseError("request", `The model "m" does not exist (for ${name}).`));
      if (options.hold?.(source)) {
        return new Promise((_resolve, reject) => {
          run.signal.addEventListener("abort", () => reject(new SynapseError("cancelled", "The run was cancelled.")), { once: true });
        });
      }
      return Promise.resolve([aPage().titled(`About ${name}`).withSources(source).withContent(`From [[${name}]].`).build()]);
    },
  ]);
}

async function start(seams: ScriptedProvider, app?: Harness["app"]): Promise<Harness> {
  const harness = await loadPlugin({ files: FILES, ...(app ? { app } : {}), seams: { createProvider: () => seams } });
  harness.app.workspace.setLayoutReady__();
  await harness.plugin.resumed;
  return harness;
}

async function queueFile(harness: Harness): Promise<{ pending: { notePath: string; force: boolean }[]; failed: { notePath: string; reason: string }[] }> {
  const text = await harness.app.vault.adapter.read(QUEUE);
  return JSON.parse(text) as { pending: { notePath: string; force: boolean }[]; failed: { notePath: string; reason: string }[] };
}

function ingestInbox(harness: Harness): Promise<void> {
  const folder = harness.app.asOriginalType__().vault.getFolderByPath("Inbox");
  if (!folder) throw new Error("No Inbox folder");
  return harness.plugin.ingest?.ingestFolder(folder) ?? Promise.resolve();
}

function wikiPages(harness: Harness): string[] {
  return harness.app.vault.getFiles().map((f) => f.path).filter((p) => p.startsWith("wiki/") && !/\/(index|log)\.md$/.test(p)).sort();
}

describe("the ingest queue survives a restart", () => {
  it("keeps what was queued in queue.json when Obsidian closes, and resumes it at the next start", async () => {
    const first = await start(provider({ hold: () => true }));
    void ingestInbox(first);
    await eventually(() => expect(first.plugin.ingest?.queue.runningKey).toBe("Inbox/Ants.md"));
    await first.plugin.ingest?.saved?.settled();
    expect((await queueFile(first)).pending.map((n) => n.notePath)).toEqual(["Inbox/Ants.md", "Inbox/Bees.md", "Inbox/Wasps.md"]);
    // Obsidian closes in the middle of the first note.
    first.registered.loaded__ = true;
    first.plugin.unload();
    await first.plugin.ingest?.settled();
    expect(wikiPages(first)).toEqual([]);
    expect((await queueFile(first)).pending).toHaveLength(3);

    const second = await start(provider(), first.app);
    expect(second.notices).toContain("Synapse is resuming 3 queued ingests left when Obsidian last closed.");
    await second.plugin.ingest?.settled();
    expect(wikiPages(second)).toEqual(["wiki/concepts/About Ants.md", "wiki/concepts/About Bees.md", "wiki/concepts/About Wasps.md"]);
    expect(second.notices.at(-1)).toBe("Synapse, resumed ingests: 3 notes ingested.");
    expect(await queueFile(second)).toEqual({ version: 1, pending: [], failed: [] });

    // Nothing is left to resume at the start after that.
    const third = await start(provider(), first.app);
    expect(third.notices.filter((n) => n.includes("resuming"))).toEqual([]);
  });

  it("keeps failed notes with their reason; 'Retry failed ingests' queues them again in one click", async () => {
    let broken = true;
    const harness = await start(provider({ fails: (p) => broken && p.endsWith("Bees.md") }));
    // Nothing has failed yet: the command is not offered.
    expect(runCommand(harness, "retry-failed-ingests")).toBe(false);
    await ingestInbox(harness);
    expect(harness.notices.at(-1)).toMatch(/^Synapse, folder "Inbox": 2 notes ingested, 1 not\.$/);
    const saved = await queueFile(harness);
    expect(saved.pending).toEqual([]);
    expect(saved.failed).toEqual([{ notePath: "Inbox/Bees.md", reason: expect.stringContaining('The model "m" does not exist (for Bees).'), at: expect.any(String) }]);

    // The list shows each failed note with its reason.
    runCommand(harness, "show-failed-ingests");
    const list = harness.opened.at(-1)?.contentEl as HTMLElement;
    expect(list.textContent).toContain("Inbox/Bees.md");
    expect(list.textContent).toContain('The model "m" does not exist (for Bees).');

    // The failure survives a restart, and the retry works from there.
    const again = await start(provider(), harness.app);
    expect(again.plugin.ingest?.failed.map((f) => f.notePath)).toEqual(["Inbox/Bees.md"]);
    broken = false;
    expect(runCommand(again, "retry-failed-ingests")).toBe(true);
    await eventually(() => expect(again.notices).toContain("Retrying 1 failed ingest."));
    await again.plugin.ingest?.settled();
    expect(again.notices.at(-1)).toBe("Synapse, retried ingests: 1 note ingested.");
    expect(wikiPages(again)).toContain("wiki/concepts/About Bees.md");
    expect(await queueFile(again)).toEqual({ version: 1, pending: [], failed: [] });
    expect(runCommand(again, "retry-failed-ingests")).toBe(false);
  });

  it("the 'Retry all' button of the failed list retries them", async () => {
    let broken = true;
    const harness = await start(provider({ fails: () => broken }));
    await ingestInbox(harness);
    expect(harness.plugin.ingest?.failed).toHaveLength(3);
    broken = false;
    runCommand(harness, "show-failed-ingests");
    const list = harness.opened.at(-1)?.contentEl as HTMLElement;
    [...list.querySelectorAll("button")].find((b) => b.textContent === "Retry all")?.click();
    await eventually(() => expect(harness.notices).toContain("Retrying 3 failed ingests."));
    await harness.plugin.ingest?.settled();
    expect(wikiPages(harness)).toHaveLength(3);
    expect(harness.plugin.ingest?.failed).toEqual([]);
  });

  it("a cancelled note is neither resumed nor listed as failed", async () => {
    const harness = await start(provider({ hold: () => true }));
    void ingestInbox(harness);
    await eventually(() => expect(harness.plugin.ingest?.queue.runningKey).toBe("Inbox/Ants.md"));
    runCommand(harness, "cancel-ingest");
    await harness.plugin.ingest?.settled();
    expect(await queueFile(harness)).toEqual({ version: 1, pending: [], failed: [] });
  });

  it("starts afresh, saying so, when queue.json is damaged", async () => {
    const first = await start(provider());
    await first.app.vault.adapter.write(QUEUE, "{ not json");
    const second = await start(provider(), first.app);
    expect(second.notices).toContain("Synapse: The saved ingest queue could not be read (not JSON); it was started afresh.");
    await first.app.vault.adapter.write(QUEUE, JSON.stringify({ version: 1, pending: [{ notePath: "" }] }));
    const third = await start(provider(), first.app);
    expect(third.notices).toContain("Synapse: The saved ingest queue was not in the expected shape; it was started afresh.");
    await third.plugin.ingest?.settled();
    expect(wikiPages(third)).toEqual([]);
  });
});

describe("already up to date, and re-ingest anyway", () => {
  const NOTE = "Inbox/Bees.md";

  async function ingestNote(harness: Harness, command = "ingest-active-note"): Promise<void> {
    harness.activate(NOTE);
    runCommand(harness, command);
    await harness.plugin.ingest?.settled();
  }

  it("says an unchanged note is up to date, without calling the provider, and offers to re-ingest it anyway", async () => {
    const scripted = provider();
    const harness = await start(scripted);
    await ingestNote(harness);
    expect(scripted.analyzeCalls).toHaveLength(1);
    await ingestNote(harness);
    expect(scripted.analyzeCalls).toHaveLength(1);
    expect(harness.notices.at(-1)).toMatch(/^"Bees" is already up to date: it has not changed since its ingest on \d{4}-\d{2}-\d{2}, so nothing was sent or written\.$/);
    clickNotice(harness, "Re-ingest anyway");
    await eventually(() => expect(scripted.analyzeCalls).toHaveLength(2));
    await harness.plugin.ingest?.settled();
    expect(harness.notices.at(-1)).toMatch(/^Synapse ingested "Bees"/);
  });

  it("'Re-ingest active note anyway' passes force", async () => {
    const scripted = provider();
    const harness = await start(scripted);
    await ingestNote(harness);
    await ingestNote(harness, "reingest-active-note");
    expect(scripted.analyzeCalls).toHaveLength(2);
    expect(harness.notices.at(-1)).toMatch(/^Synapse ingested "Bees"/);
  });
});
