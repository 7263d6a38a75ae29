/**
 * Without the index's catalogue, an ingest compares each new page with every page of the wiki; the
 * comparison must stay cheap per page. The dear part — telling titles apart by their
 * distinguishing marks — is asked only of pages close enough to be shortlisted, so how often it is
 * asked does not grow with the wiki (counted, not timed), and a refusal record that holds no
 * refusal is never looked up page by page.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryVault } from "../../src/vault/memory-vault";
import { ingestNote } from "../../src/wiki/ingest-note";
import { MatchVerdicts } from "../../src/wiki/ingest/match-verdicts";
import { aPage, ScriptedProvider, SOURCE_PATH } from "../builders";

const counted = vi.hoisted(() => ({ distinctions: 0, titleKeys: 0 }));

vi.mock("../../src/wiki/distinguishing-marks", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../src/wiki/distinguishing-marks")>();
  return {
    ...actual,
    distinction: (first: string, second: string) => {
      counted.distinctions += 1;
      return actual.distinction(first, second);
    },
  };
});

vi.mock("../../src/wiki/page-identity", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../src/wiki/page-identity")>();
  return {
    ...actual,
    titleKey: (title: string) => {
      counted.titleKeys += 1;
      return actual.titleKey(title);
    },
  };
});

const page = (title: string, body: string) => `---\ntype: concept\ntitle: ${title}\nsources:\n  - notes/Other.md\nlang: en\n---\n${body}\n`;

/** A wiki of `fillers` pages unrelated to the note, beside one page whose title is close to the new page's. */
function vaultWith(fillers: number): MemoryVault {
  const files: Record<string, string> = {
    [SOURCE_PATH]: "# Source note\n\nAbout examples of examples.\n",
    "wiki/concepts/Example concept 2.md": page("Example concept 2", "The second example, on hyperbolic cartography."),
  };
  for (let i = 0; i < fillers; i++) files[`wiki/concepts/Filler ${i}.md`] = page(`Filler ${i}`, `Filler page number ${i} about pottery glazes.`);
  return new MemoryVault(files);
}

/** The comparisons one ingest of the same note makes, and what it wrote. */
async function ingestInto(fillers: number) {
  const vault = vaultWith(fillers);
  const provider = new ScriptedProvider([[aPage().titled("Example concept").withContent("Examples explain [[Source note]] with hyperbolic cartography.").build()]]);
  counted.distinctions = 0;
  const report = await ingestNote({ vault, provider, settings: DEFAULT_SETTINGS }, { notePath: SOURCE_PATH });
  return { report, distinctions: counted.distinctions };
}

describe("an ingest's work per page of the wiki", () => {
  beforeEach(() => {
    counted.distinctions = 0;
    counted.titleKeys = 0;
  });

  it("compares distinguishing marks only for the shortlist, whatever the wiki's size", async () => {
    const small = await ingestInto(20);
    const large = await ingestInto(400);
    expect(small.report.error).toBeNull();
    expect(large.report.pages.map((p) => `${p.action} ${p.path}`)).toEqual(small.report.pages.map((p) => `${p.action} ${p.path}`));
    // The close title is shortlisted (and told apart by its number), the fillers never.
    expect(small.distinctions).toBeGreaterThan(0);
    expect(large.distinctions).toBe(small.distinctions);
  });

  it("looks up no pair of titles when nothing was ever kept apart, and finds the one that was", async () => {
    const verdicts = MatchVerdicts.inMemory();
    counted.titleKeys = 0;
    for (let i = 0; i < 400; i++) expect(verdicts.keptApart("Example concept", `Filler ${i}`)).toBe(false);
    expect(counted.titleKeys).toBe(0);
    verdicts.refuse({ newTitle: "Example concept", existingTitle: "Filler 7", reason: "similar", sentence: "" });
    expect(verdicts.keptApart("filler 7", "Example concept")).toBe(true);
    expect(verdicts.keptApart("Example concept", "Filler 8")).toBe(false);
  });
});
