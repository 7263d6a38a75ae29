import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, type Settings } from "../../src/settings/schema";
import { NodeVault } from "../../src/vault/node-vault";
import { ingestNote } from "../../src/wiki/ingest-note";
import { parseBody } from "../../src/wiki/provenance";
import { splitFrontmatter } from "../../src/core/markdown";
import { SOURCE_PATH, ScriptedProvider, aPage } from "../builders";
import { executableParts } from "../helpers/executable-markdown";
import { BAD_SOURCES, HOSTILE_BODY } from "../helpers/hostile-page";
import { makeVault, readVaultFile } from "../helpers/temp-vault";

const NOW = () => Date.UTC(2026, 11, 2, 12, 0);
const PAGE = "wiki/concepts/Example concept.md";

function settings(overrides: Partial<Settings> = {}): Settings {
  return { ...structuredClone(DEFAULT_SETTINGS), excludedFolders: ["Private"], ...overrides };
}

function vault() {
  return makeVault({
    [SOURCE_PATH]: "# Source note\n\nAbout the Example concept.\n",
    "Private/Salary review.md": "# Salary review\n\nConfidential.\n",
    "notes/Other note.md": "# Other note\n\nAlso about examples.\n",
  });
}

async function ingest(root: string, provider: ScriptedProvider, force = false) {
  return ingestNote({ vault: new NodeVault(root), provider, settings: settings(), now: NOW }, { notePath: SOURCE_PATH, force });
}

describe("a hostile page from the model", () => {
  it("refuses every bad source, tells the model why, and writes the page inert once it cites real notes", async () => {
    const root = vault();
    const provider = new ScriptedProvider([
      [aPage().withSources(SOURCE_PATH, ...BAD_SOURCES).withContent(HOSTILE_BODY).build()],
      [aPage().withSources(SOURCE_PATH, "notes/Other note.md").withContent(HOSTILE_BODY).build()],
    ]);
    const report = await ingest(root, provider);

    expect(report.converged).toBe(true);
    expect(provider.generateCalls).toHaveLength(2);
    const retry = provider.generateCalls[1]?.feedback ?? "";
    for (const bad of BAD_SOURCES) expect(retry).toContain(`frontmatter.sources lists "${bad}"`);
    expect(retry).toContain('"../outside/canary.md", which is not a path inside the vault');
    expect(retry).toContain('"Private/Salary review.md", which is in a folder the user excluded');
    expect(retry).toContain('"wiki/index.md", which is one of the wiki\'s own files');
    expect(retry).toContain('"etc/passwd", which is not a note in the vault');

    const written = readVaultFile(root, PAGE);
    const { frontmatter, body } = splitFrontmatter(written);
    // Synapse's own markers around the section are the only ones; what the model wrote is inert.
    const segments = parseBody(body);
    expect(executableParts(segments.map((s) => (s.kind === "section" ? s.content : s.text)).join("\n"))).toEqual([]);
    expect(frontmatter.sources).toEqual([SOURCE_PATH, "notes/Other note.md"]);
    // Visible as data: the words are all still there.
    expect(written).toContain("&lt;script>fetch(");
    expect(written).toContain("```text dataviewjs");
    // The whole body is one section of the note: the forged marker closed nothing.
    expect(segments.map((s) => s.kind)).toEqual(["section"]);
  });

  it("reports a refused source in words for the user when the model never fixes it", async () => {
    const root = vault();
    const provider = new ScriptedProvider([[aPage().withSources(SOURCE_PATH, "../outside/canary.md").build()]]);
    const report = await ingest(root, provider);
    expect(report.converged).toBe(false);
    expect(report.issues).toContain('The page "Example concept" was refused because it cites "../outside/canary.md" as a source: it points outside the vault.');
    expect(() => readVaultFile(root, PAGE)).toThrow();
  });

  it("does not let a forged marker turn model text into the user's on the next ingest", async () => {
    const root = vault();
    await ingest(root, new ScriptedProvider([[aPage().withContent(HOSTILE_BODY).build()]]));
    const next = new ScriptedProvider([[aPage().withContent("The Example concept, revised.").build()]]);
    const report = await ingest(root, next, true);
    expect(report.converged).toBe(true);
    const written = readVaultFile(root, PAGE);
    expect(written).toContain("The Example concept, revised.");
    expect(written).not.toContain("Forged user text");
  });
});
