/**
 * The plugin keeps the registry of ingested notes in shards in its state folder, through
 * Obsidian's DataAdapter: an unchanged note is "already up to date", and a registry an earlier
 * version kept whole in sources.json is split at start-up, nothing lost.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadPlugin, runCommand, type Harness } from "./plugin-harness";

afterEach(() => vi.restoreAllMocks());

const STATE = ".obsidian/plugins/synapse/state";
const NOTE = "notes/Bees.md";
const FILES = { [NOTE]: "# Bees\n\nBees make honey from the nectar of flowers." };

async function ingest(harness: Harness): Promise<void> {
  harness.activate(NOTE);
  expect(runCommand(harness, "ingest-active-note")).toBe(true);
  await harness.plugin.ingest?.settled();
}

async function shards(harness: Harness): Promise<Record<string, unknown>> {
  const adapter = harness.app.vault.adapter;
  const out: Record<string, unknown> = {};
  if (!(await adapter.exists(`${STATE}/sources`))) return out;
  for (const file of (await adapter.list(`${STATE}/sources`)).files) out[file.slice(STATE.length + 1)] = JSON.parse(await adapter.read(file));
  return out;
}

describe("the registry of ingested notes in the plugin", () => {
  it("is written in shards with the run, and an unchanged note is then already up to date", async () => {
    const harness = await loadPlugin({ files: FILES });
    harness.app.workspace.setLayoutReady__();
    await harness.plugin.resumed;
    await ingest(harness);
    const stored = await shards(harness);
    expect(Object.keys(stored).sort()).toEqual([expect.stringMatching(/^sources\/hashes-[0-9a-f]{2}\.json$/), expect.stringMatching(/^sources\/notes-[0-9a-f]{2}\.json$/)]);
    const notesShard = Object.entries(stored).find(([key]) => key.includes("/notes-"))?.[1] as { notes: Record<string, { pages: string[] }> };
    expect(Object.keys(notesShard.notes)).toEqual([NOTE]);
    expect(notesShard.notes[NOTE]?.pages.length).toBeGreaterThan(0);
    expect(await harness.app.vault.adapter.exists(`${STATE}/sources.json`)).toBe(false);

    await ingest(harness);
    expect(harness.notices.at(-1)).toMatch(/"Bees" is already up to date/);
  });

  it("splits a whole sources.json of an earlier version when the layout is ready, and finds the note up to date", async () => {
    const first = await loadPlugin({ files: FILES });
    first.app.workspace.setLayoutReady__();
    await first.plugin.resumed;
    await ingest(first);
    const adapter = first.app.vault.adapter;
    const recorded = Object.values(await shards(first)).flatMap((s) => Object.entries((s as { notes?: Record<string, unknown> }).notes ?? {}));
    // The registry as an earlier version kept it: one file.
    await adapter.rmdir(`${STATE}/sources`, true);
    await adapter.write(`${STATE}/sources.json`, JSON.stringify({ version: 1, notes: Object.fromEntries(recorded) }));

    const second = await loadPlugin({ files: FILES, app: first.app });
    second.app.workspace.setLayoutReady__();
    await second.plugin.resumed;
    expect(await adapter.exists(`${STATE}/sources.json`)).toBe(false);
    const split = Object.values(await shards(second)).flatMap((s) => Object.entries((s as { notes?: Record<string, unknown> }).notes ?? {}));
    expect(split).toEqual(recorded);
    await ingest(second);
    expect(second.notices.at(-1)).toMatch(/"Bees" is already up to date/);
  });
});
