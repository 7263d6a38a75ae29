/**
 * A review that leaves some changes out records the note as partly applied: the next ingest of
 * the unchanged note is not "already up to date", it offers exactly what was left out, and once
 * that is applied the note is up to date.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import type { WriteContext } from "../../src/write/apply";
import { ingestNote } from "../../src/wiki/ingest-note";
import type { ReviewPlan, ReviewSelection } from "../../src/wiki/review";
import { aPage, ScriptedProvider } from "../builders";

const NOTE = "notes/Source note.md";
const FIRST = "wiki/concepts/First concept.md";
const SECOND = "wiki/concepts/Second concept.md";
const NOW = () => Date.parse("2026-12-01T06:00:00Z");

function setup() {
  const vault = new MemoryVault({ [NOTE]: "# Source note\n\nTwo concepts." });
  const write: WriteContext = { store: new MemoryStateStore(), writer: { kind: "cli", pid: null, host: null } };
  const provider = new ScriptedProvider([
    [aPage().titled("First concept").withSources(NOTE).withContent("First words.").build(), aPage().titled("Second concept").withSources(NOTE).withContent("Second words.").build()],
  ]);
  const offered: string[][] = [];
  /** Ingests with a review that keeps the changes `keep` chooses (every change when not given). */
  const ingest = (keep: (paths: string[]) => string[] = (paths) => paths) =>
    ingestNote(
      { vault, provider, settings: DEFAULT_SETTINGS, write, now: NOW },
      {
        notePath: NOTE,
        review: (plan: ReviewPlan): Promise<ReviewSelection> => {
          const paths = plan.changes.map((c) => c.path);
          offered.push(paths);
          return Promise.resolve(keep(paths));
        },
      },
    );
  return { vault, provider, offered, ingest };
}

describe("a partly applied review", () => {
  it("is not up to date: the next ingest offers what was left out, then the note is up to date", async () => {
    const { vault, provider, offered, ingest } = setup();
    const partial = await ingest((paths) => paths.filter((p) => p !== SECOND));
    expect(partial.declined.map((d) => d.path)).toEqual([SECOND]);
    expect(await vault.stat(SECOND)).toBeNull();

    const again = await ingest();
    expect(again.upToDate).toBeNull();
    expect(offered.at(-1)).toEqual([SECOND]);
    expect(await vault.read(SECOND)).toContain("Second words.");
    const calls = provider.generateCalls.length;

    expect((await ingest()).upToDate).not.toBeNull();
    expect(provider.generateCalls.length).toBe(calls);
  });

  it("stays partly applied while the review keeps leaving it out", async () => {
    const { offered, ingest } = setup();
    await ingest((paths) => paths.filter((p) => p !== SECOND));
    await ingest(() => []);
    const third = await ingest((paths) => paths.filter((p) => p !== SECOND));
    expect(third.upToDate).toBeNull();
    expect(offered).toEqual([[FIRST, SECOND], [SECOND], [SECOND]]);
  });

  it("renamed since, is still the same source: what was applied is spelled anew, what was left out is offered", async () => {
    const { vault, offered } = setup();
    const write: WriteContext = { store: new MemoryStateStore(), writer: { kind: "cli", pid: null, host: null } };
    const yields = (path: string) => [aPage().titled("First concept").withSources(path).withContent("First words.").build(), aPage().titled("Second concept").withSources(path).withContent("Second words.").build()];
    const run = (path: string, keep: (paths: string[]) => string[]) =>
      ingestNote(
        { vault, provider: new ScriptedProvider([yields(path)]), settings: DEFAULT_SETTINGS, write, now: NOW },
        { notePath: path, review: (plan) => (offered.push(plan.changes.map((c) => c.path)), Promise.resolve(keep(plan.changes.map((c) => c.path)))) },
      );
    await run(NOTE, (paths) => paths.filter((p) => p !== SECOND));
    const text = await vault.read(NOTE);
    await vault.remove(NOTE);
    await vault.create("notes/Renamed.md", text);

    const again = await run("notes/Renamed.md", (paths) => paths);
    expect(again.error).toBeNull();
    expect(again.upToDate).toBeNull();
    const first = await vault.read(FIRST);
    expect(first.match(/%% synapse:source /g)).toHaveLength(1);
    expect(first).toContain("%% synapse:source notes/Renamed.md ");
    expect(await vault.read(SECOND)).toContain("%% synapse:source notes/Renamed.md ");
  });
});
