/**
 * A review that leaves some changes out records the note as partly applied: the next ingest of
 * the unchanged note is not "already up to date", it offers exactly what was left out, and once
 * that is applied the note is up to date.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import type { WriteContext } from "../../src/wiki/apply";
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
});
