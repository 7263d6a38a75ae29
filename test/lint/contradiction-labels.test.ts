/**
 * What a contradiction finding says and offers: the two sides by the names a person knows them
 * by, never two fix buttons that read the same, and no internal record id in the message.
 */
import { describe, expect, it } from "vitest";
import { contradictionFindings } from "../../src/lint/contradictions";
import type { WikiSnapshot } from "../../src/lint/snapshot";
import type { ContradictionRecord } from "../../src/wiki/contradictions";

const PAGE = "wiki/entities/Ada Lovelace.md";
const snapshot: WikiSnapshot = { wikiFolder: "wiki/", pages: [], files: [], excludedFiles: [], noteLinks: new Map(), indexText: null };

function record(sources: string[]): ContradictionRecord {
  return { id: "c-ca8c0123", pages: [PAGE], sources, passages: ["Ada was born in 1815.", "Ada was born in 1816."], status: "open", created: "2026-01-01" };
}

const labels = (sources: string[]) => contradictionFindings([record(sources)], snapshot)[0]?.fixes.map((f) => f.label) ?? [];

describe("a contradiction's finding", () => {
  it("names each side by its source's name", () => {
    expect(labels(["notes/ada.md", "notes/babbage.md"])).toEqual(["Keep what ada says", "Keep what babbage says", "Dismiss it: not a real contradiction"]);
  });

  it("names the sides by path when both sources share a name, so the two buttons differ", () => {
    expect(labels(["notes/ada.md", "clippings/Ada.md"])).toEqual(["Keep what notes/ada.md says", "Keep what clippings/Ada.md says", "Dismiss it: not a real contradiction"]);
  });

  it("says first and second source when both sides come from one note", () => {
    expect(labels(["notes/ada.md", "notes/ada.md"]).slice(0, 2)).toEqual(["Keep what the first source says", "Keep what the second source says"]);
  });

  it("keeps the record id out of the message, and starts it with a capital", () => {
    const [finding] = contradictionFindings([record(["notes/ada.md", "notes/ada.md"])], snapshot);
    expect(finding?.message).toBe('The first source says "Ada was born in 1815." but the second source says "Ada was born in 1816.".');
    expect(finding?.message).not.toContain("c-ca8c");
  });
});
