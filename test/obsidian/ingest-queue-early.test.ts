/**
 * An ingest started before the layout is ready (a command run while Obsidian is still starting)
 * must not overwrite the previous session's queue.json: its queued notes are still resumed and its
 * failed notes still listed, through the plugin as the user meets it.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RunContext } from "../../src/core/run-context";
import type { WikiPage } from "../../src/core/schemas";
import { aPage, ScriptedProvider } from "../builders";
import { eventually } from "../helpers/eventually";
import { loadPlugin, runCommand } from "./plugin-harness";

afterEach(() => vi.restoreAllMocks());

const QUEUE = ".obsidian/plugins/synapse/state/queue.json";
const PREVIOUS = {
  version: 1,
  pending: [{ notePath: "Inbox/Bees.md", force: false }, { notePath: "Inbox/Wasps.md", force: false }],
  failed: [{ notePath: "Inbox/Moths.md", reason: "The model was missing.", at: "2026-11-30T10:00:00.000Z" }],
};
const FILES = {
  "Inbox/Ants.md": "# Ants\n\nAnts live in colonies.",
  "Inbox/Bees.md": "# Bees\n\nBees make honey.",
  "Inbox/Wasps.md": "# Wasps\n\nWasps sting.",
  "Inbox/Moths.md": "# Moths\n\nMoths fly at night.",
};

const provider = () =>
  new ScriptedProvider([
    (run: RunContext): Promise<WikiPage[]> => {
      const source = run.source?.path ?? "";
      const name = source.replace(/\.md$/, "").split("/").pop() ?? "";
      return Promise.resolve([aPage().titled(`About ${name}`).withSources(source).withContent(`From [[${name}]].`).build()]);
    },
  ]);

describe("an ingest before the layout is ready", () => {
  it("keeps the previous session's queued and failed notes", async () => {
    const seams = provider();
    const harness = await loadPlugin({ files: FILES, seams: { createProvider: () => seams } });
    await harness.app.vault.adapter.write(QUEUE, JSON.stringify(PREVIOUS));
    harness.activate("Inbox/Ants.md");
    runCommand(harness, "ingest-active-note");
    await eventually(() => expect(harness.plugin.ingest?.queue.has("Inbox/Ants.md") ?? true).toBe(false));
    await harness.plugin.ingest?.saved?.settled();

    harness.app.workspace.setLayoutReady__();
    await harness.plugin.resumed;
    expect(harness.notices).toContain("Synapse is resuming 2 queued ingests left when Obsidian last closed.");
    await harness.plugin.ingest?.settled();
    expect(harness.plugin.ingest?.failed.map((f) => f.notePath)).toEqual(["Inbox/Moths.md"]);
    const saved = JSON.parse(await harness.app.vault.adapter.read(QUEUE)) as typeof PREVIOUS;
    expect(saved.pending).toEqual([]);
    expect(saved.failed.map((f) => f.notePath)).toEqual(["Inbox/Moths.md"]);
  });
});
