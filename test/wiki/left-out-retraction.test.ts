/**
 * A page whose change was left out at review keeps the note's earlier section, and the registry
 * lists it under `leftOut`, not `pages`. When the note later stops yielding that page, the ingest
 * must still find it (with the index as catalogue, retrieval may rank it out) and retract the section.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { syncIndex } from "../../src/retrieval/sync";
import { ingestNote } from "../../src/wiki/ingest-note";
import type { ReviewPlan, ReviewSelection } from "../../src/wiki/review";
import { SourceRegistry } from "../../src/wiki/source-registry";
import { aPage, ScriptedProvider } from "../builders";
import { crowdedCatalogRig } from "../helpers/catalog-rig";

const NOTE = "notes/A.md";
const GLACIER = "wiki/concepts/Glacier.md";
const NOW = () => Date.parse("2026-12-01T06:00:00Z");
const page = (title: string, content: string) => aPage().titled(title).withSources(NOTE).withContent(content).build();

describe("a page left out at review, which the note later stops yielding", () => {
  it("loses the note's section, with the index as catalogue", async () => {
    // Filler pages that retrieval ranks above the note's page, so only the registry names it.
    const { vault, write, index, catalog } = await crowdedCatalogRig({ [NOTE]: "# A\n\nVersion one." });
    const run = async (text: string, pages: ReturnType<typeof page>[], leaveOut?: string) => {
      await vault.process(NOTE, () => text);
      await syncIndex(index, vault);
      const review = leaveOut
        ? (plan: ReviewPlan): Promise<ReviewSelection> => Promise.resolve(plan.changes.map((c) => c.path).filter((p) => p !== leaveOut))
        : undefined;
      const report = await ingestNote(
        { vault, provider: new ScriptedProvider([pages]), settings: DEFAULT_SETTINGS, write, now: NOW, retriever: index, catalog },
        { notePath: NOTE, ...(review ? { review } : {}) },
      );
      expect(report.error).toBeNull();
      return report;
    };

    await run("# A\n\nVersion one.", [page("Glacier", "Ice moves slowly downhill."), page("Lighthouse", "A tower with a lamp.")]);
    const partial = await run("# A\n\nVersion two.", [page("Glacier", "Ice moves slowly, and carves."), page("Lighthouse", "A tower with a lamp, lit.")], GLACIER);
    expect(partial.declined.map((d) => d.path)).toEqual([GLACIER]);
    expect((await new SourceRegistry(write.store).entry(NOTE))?.pages).toEqual(["wiki/concepts/Lighthouse.md"]);
    expect(await vault.read(GLACIER)).toContain("Ice moves slowly downhill.");

    await run("# A\n\nVersion three.", [page("Lighthouse", "A tower with a lamp, still.")]);
    const glacier = await vault.read(GLACIER);
    expect(glacier).not.toContain("Ice moves slowly downhill.");
    expect(glacier).not.toContain("%% synapse:source notes/A.md ");
  });
});
