/**
 * Search depth counts notes, not chunks: a long note matching in many sections (and in its title,
 * which counts in every chunk) must not fill the text ranking alone and leave the other matching
 * notes out (the reviewer's case: 11 notes match, one was returned).
 */
import { describe, expect, it } from "vitest";
import { aVault, indexed } from "./index-builder";

const SECTIONS = 40;

function aVaultWithOneLongNote(): ReturnType<typeof aVault> {
  const files: Record<string, string> = {};
  const sections = Array.from({ length: SECTIONS }, (_, i) =>
    i === 7 ? `## Stripes\n\nZebra zebra zebra zebra zebra: a zebra's stripes.` : `## Section ${i}\n\nOne zebra among the herd, number ${i}.`,
  );
  files["notes/Zebra.md"] = sections.join("\n\n");
  for (const name of ["Lions", "Tigers", "Bears"]) files[`notes/${name}.md`] = `# ${name}\n\nAnimals of the savanna, seen on safari.`;
  for (let i = 0; i < 10; i++) files[`notes/sighting ${i}.md`] = `# Sighting ${i}\n\nA zebra was seen once, among many other animals like lions and tigers and bears ${i}.`;
  return aVault(files);
}

describe("search depth", () => {
  it("returns the matching notes, not one long note's chunks", async () => {
    const vault = aVaultWithOneLongNote();
    const index = await indexed(vault);
    const hits = await index.retrieve("zebra", { scope: { kind: "all" }, limit: 10 });
    expect(hits).toHaveLength(10);
    for (const hit of hits) expect(vault.files.get(hit.path)?.toLowerCase()).toContain("zebra");
    expect(new Set(hits.map((h) => h.path)).size).toBe(10);
  });

  it("gives each note as its best chunk: heading and snippet from that chunk", async () => {
    const index = await indexed(aVaultWithOneLongNote());
    const text = index.searchText("zebra", { scope: { kind: "all" }, limit: 11 });
    expect(text.map((h) => h.path).sort()).toEqual(["notes/Zebra.md", ...Array.from({ length: 10 }, (_, i) => `notes/sighting ${i}.md`)].sort());
    expect(text[0]).toMatchObject({ path: "notes/Zebra.md", heading: "Stripes", ordinal: 7 });
    const [hit] = await index.retrieve("zebra", { scope: { kind: "notes" }, limit: 1 });
    expect(hit).toMatchObject({ path: "notes/Zebra.md", heading: "Stripes" });
    expect(hit?.snippet).toContain("stripes");
  });
});
