import { describe, expect, it } from "vitest";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import {
  CONTRADICTIONS_KEY,
  conflictingFigures,
  flaggedContradictions,
  readContradictions,
} from "../../src/wiki/contradictions";
import { recordContradictions } from "../helpers/record-contradictions";

const A = "notes/a.md";
const B = "notes/b.md";

describe("finding contradictions", () => {
  it("catches the same statement with a different figure", () => {
    const found = conflictingFigures("The bridge opened in 1932 after six years of work.", [{ source: A, content: "- The bridge opened in 1931 after six years of work." }], B);
    expect(found).toEqual([{ sources: [B, A], passages: ["The bridge opened in 1932 after six years of work.", "The bridge opened in 1931 after six years of work."] }]);
  });

  it.each([
    ["the same figures", "The bridge opened in 1932 after six years.", "The bridge opened in 1932 after six years."],
    ["different wording", "The bridge opened in 1932.", "The tunnel closed in 1931."],
    ["too short to judge", "Born 1815.", "Born 1816."],
    ["sentences with links (counts Synapse wrote)", "Ada appears in [[Notes]] (3 times) here.", "Ada appears in [[Notes]] (2 times) here."],
    ["statements inside callouts", "> [!warning] Contradiction\n> The bridge opened in 1932 after six years.", "The bridge opened in 1931 after six years."],
  ])("does not flag %s", (_name, mine, theirs) => {
    expect(conflictingFigures(mine, [{ source: A, content: theirs }], B)).toEqual([]);
  });

  it("attributes a model's flag to the section holding the passage, or to no source", () => {
    const others = [{ source: A, content: "*From A*\n\nThe **capital** is Bonn." }];
    expect(flaggedContradictions([{ claim: "The capital is Berlin.", existing: "The capital is Bonn" }], others, B)).toEqual([
      { sources: [B, A], passages: ["The capital is Berlin.", "The capital is Bonn"] },
    ]);
    expect(flaggedContradictions([{ claim: "X.", existing: "Not on the page." }], others, B)[0]?.sources).toEqual([B, ""]);
    expect(flaggedContradictions([{ claim: " ", existing: "x" }], others, B)).toEqual([]);
  });
});

describe("the record lint reads", () => {
  const found = { page: "wiki/Bridge.md", sources: [B, A] as const, passages: ["Opened in 1932.", "Opened in 1931."] as const };

  it("records each contradiction once, open, and adds pages it is seen on again", async () => {
    const state = new MemoryStateStore();
    await recordContradictions(state, [found], "2026-11-30");
    const records = await recordContradictions(state, [found, { ...found, page: "wiki/Other.md" }], "2026-12-01");
    expect(records).toEqual([
      { id: expect.stringMatching(/^c-[0-9a-f]{16}$/), pages: ["wiki/Bridge.md", "wiki/Other.md"], sources: [B, A], passages: ["Opened in 1932.", "Opened in 1931."], status: "open", created: "2026-11-30" },
    ]);
    expect(await readContradictions(state)).toEqual(records);
  });

  it("keeps a status the user set", async () => {
    const state = new MemoryStateStore();
    const [record] = await recordContradictions(state, [found], "2026-11-30");
    await state.write(CONTRADICTIONS_KEY, JSON.stringify({ version: 1, contradictions: [{ ...record, status: "dismissed" }] }));
    expect((await recordContradictions(state, [found], "2026-12-01"))[0]?.status).toBe("dismissed");
  });

  it("refuses to overwrite a damaged record, with a sentence saying so", async () => {
    const state = new MemoryStateStore();
    await state.write(CONTRADICTIONS_KEY, "{not json");
    await expect(recordContradictions(state, [found], "2026-11-30")).rejects.toThrow(/damaged; it was left as it is/);
    expect(await state.read(CONTRADICTIONS_KEY)).toBe("{not json");
  });
});
