import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isExcluded, isShareablePage } from "../../src/core/perimeter";
import { DEFAULT_SETTINGS, type Settings } from "../../src/settings/schema";
import { NodeVault } from "../../src/vault/node-vault";
import { ingestNote } from "../../src/wiki/ingest-note";
import { SOURCE_PATH, ScriptedProvider, aPage } from "../builders";
import { makeVault, readVaultFile } from "../helpers/temp-vault";

const NOW = () => Date.UTC(2026, 10, 30, 12, 0);

function settings(overrides: Partial<Settings> = {}): Settings {
  return { ...structuredClone(DEFAULT_SETTINGS), ...overrides };
}

async function ingest(root: string, provider: ScriptedProvider, options: { settings?: Settings; notePath?: string } = {}) {
  return ingestNote({ vault: new NodeVault(root), provider, settings: options.settings ?? settings(), now: NOW }, { notePath: options.notePath ?? SOURCE_PATH });
}

describe("one Unicode normalisation for paths", () => {
  it("excludes a folder whatever its Unicode form or case (property)", () => {
    const name = fc.array(fc.constantFrom("Priv", "é", "e\u0301", "Å", "A\u030a", "ñ", "n\u0303", "x"), { minLength: 1, maxLength: 4 }).map((p) => p.join(""));
    fc.assert(
      fc.property(name, fc.constantFrom<"NFC" | "NFD">("NFC", "NFD"), fc.constantFrom<"NFC" | "NFD">("NFC", "NFD"), fc.boolean(), (folder, pathForm, settingForm, upper) => {
        const setting = (upper ? folder.toUpperCase() : folder).normalize(settingForm);
        expect(isExcluded(`${folder.normalize(pathForm)}/note.md`, [setting])).toBe(true);
        expect(isExcluded(`${folder.normalize(pathForm)}x/note.md`, [setting])).toBe(false);
      }),
    );
  });

  it("refuses a note in a decomposed Privé folder on disk when Privé is excluded", async () => {
    const decomposed = "Prive\u0301/Journal.md";
    const root = makeVault({ [decomposed]: "# Journal\n\nPrivate thoughts about the Example concept.\n" });
    const provider = new ScriptedProvider([[aPage().withSources(decomposed).build()]]);
    const report = await ingest(root, provider, { notePath: decomposed, settings: settings({ excludedFolders: ["Priv\u00e9"] }) });
    expect(report.error?.kind).toBe("perimeter");
    expect(provider.analyzeCalls).toHaveLength(0);
  });

  it("keeps a decomposed Privé wiki subfolder out of the model's view", async () => {
    const root = makeVault({
      [SOURCE_PATH]: "# Source note\n\nThe Secret Project is mentioned here.\n",
      "wiki/Prive\u0301/Secret Project.md": "---\ntitle: Secret Project\n---\n\nConfidential salaries.",
    });
    const provider = new ScriptedProvider([[aPage().build()]]);
    await ingest(root, provider, { settings: settings({ excludedFolders: ["wiki/Priv\u00e9"] }) });
    const seen = `${provider.analyzeCalls[0]?.vaultContext ?? ""}\n${provider.generateCalls[0]?.retrievalContext ?? ""}`;
    expect(seen).not.toContain("Secret Project");
  });
});

describe("pages drawn from excluded notes", () => {
  it("judges a page by its sources in every spelling", () => {
    expect(isShareablePage(["[[Private/Diary]]"], ["private"])).toBe(false);
    expect(isShareablePage(["notes/a.md", "./Prive\u0301/b.md"], ["Priv\u00e9"])).toBe(false);
    expect(isShareablePage(["notes/a.md"], ["private"])).toBe(true);
    expect(isShareablePage([], ["private"])).toBe(true);
  });

  it("neither quotes nor names a page whose sources lie in an excluded folder", async () => {
    const root = makeVault({
      [SOURCE_PATH]: "# Source note\n\nThe Example concept and the Salary Review are mentioned here.\n",
      "wiki/concepts/Example concept.md": "---\ntitle: Example concept\nsources: [notes/Other.md]\n---\n\nShareable words.",
      "wiki/concepts/Salary Review.md": "---\ntitle: Salary Review\nsources:\n  - \"[[private/Diary]]\"\n---\n\nConfidential salaries.",
      // Unquoted, YAML reads the link as a list inside a list: still a source, still private.
      "wiki/concepts/Bonus Plan.md": "---\ntitle: Bonus Plan\nsources:\n  - [[private/Diary]]\n---\n\nConfidential bonuses.",
    });
    const provider = new ScriptedProvider([[aPage().build()]]);
    await ingest(root, provider, { settings: settings({ excludedFolders: ["Private"] }) });
    const seen = `${provider.analyzeCalls[0]?.vaultContext ?? ""}\n${provider.generateCalls[0]?.retrievalContext ?? ""}`;
    expect(seen).toContain("Shareable words.");
    expect(seen).not.toContain("Confidential");
    expect(seen).not.toContain("Salary Review");
    expect(seen).not.toContain("Bonus Plan");
  });
});

describe("pages from any provider get one shape", () => {
  it("writes valid tags and one spelling per source, whatever the model wrote", async () => {
    const root = makeVault({ [SOURCE_PATH]: "# Source note\n\nAbout the Example concept.\n" });
    const page = aPage().withSources("[[notes/Source note]]", "./notes/Source note.md", "notes/Source note.md").build();
    page.frontmatter.tags = ["#Machine Learning", "machine-learning", "2024", "", "  "];
    page.title = "Example\nconcept\u202E";
    const report = await ingest(root, new ScriptedProvider([[page]]));
    expect(report.pages).toEqual([{ path: "wiki/concepts/Example concept.md", type: "concept", title: "Example concept", action: "created" }]);
    const written = readVaultFile(root, "wiki/concepts/Example concept.md");
    expect(written).toContain("title: Example concept\nsources:\n  - notes/Source note.md\nlang: en\ntags:\n  - Machine-Learning\n");
    expect(readVaultFile(root, "wiki/index.md")).toContain("[[wiki/concepts/Example concept|Example concept]]");
  });
});
