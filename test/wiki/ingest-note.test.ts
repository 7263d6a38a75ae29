import { describe, expect, it } from "vitest";
import { SynapseError } from "../../src/core/errors";
import type { WikiPage } from "../../src/core/schemas";
import { DEFAULT_SETTINGS, type Settings } from "../../src/settings/schema";
import { NodeVault } from "../../src/vault/node-vault";
import type { VaultPort } from "../../src/vault/vault-port";
import { ingestNote } from "../../src/wiki/ingest-note";
import { OfflineProvider } from "../../src/providers/offline/offline-provider";
import { SOURCE_PATH, ScriptedProvider, aPage } from "../builders";
import { makeVault, readVaultFile, snapshot } from "../helpers/temp-vault";

const NOTE = "# Source note\n\nA note about the Example concept, written for tests.\n";
const NOW = () => Date.UTC(2026, 10, 29, 12, 0);

function settings(overrides: Partial<Settings> = {}): Settings {
  return { ...structuredClone(DEFAULT_SETTINGS), ...overrides };
}

async function ingest(root: string, provider: ScriptedProvider | OfflineProvider, options: { settings?: Settings; vault?: VaultPort; dryRun?: boolean; signal?: AbortSignal; notePath?: string } = {}) {
  return ingestNote(
    { vault: options.vault ?? new NodeVault(root), provider, settings: options.settings ?? settings(), now: NOW },
    { notePath: options.notePath ?? SOURCE_PATH, ...(options.dryRun ? { dryRun: true } : {}), ...(options.signal ? { signal: options.signal } : {}) },
  );
}

const concept = (content = "Examples explain things. See [[Source note]].") => aPage().titled("Example concept").withContent(content).build();

describe("ingesting a note", () => {
  it("writes the pages, the index and the log, and reports each page", async () => {
    const root = makeVault({ [SOURCE_PATH]: NOTE });
    const report = await ingest(root, new ScriptedProvider([[concept()]]));
    expect(report).toMatchObject({ converged: true, error: null, attempts: { analyze: 1, generate: 1 } });
    expect(report.pages).toEqual([{ path: "wiki/concepts/Example concept.md", type: "concept", title: "Example concept", action: "created" }]);
    const page = readVaultFile(root, "wiki/concepts/Example concept.md");
    expect(page).toMatch(/^---\ntype: concept\ntitle: Example concept\nsources:\n {2}- notes\/Source note.md\nlang: en\n/);
    expect(page).toContain("created: 2026-11-29");
    expect(readVaultFile(root, "wiki/index.md")).toContain("- [[wiki/concepts/Example concept|Example concept]]");
    expect(readVaultFile(root, "wiki/log.md")).toContain(
      "## [2026-11-29] ingest | Source note\n\n- created [[wiki/concepts/Example concept|Example concept]]\n- source: [[notes/Source note|Source note]]\n- provider: scripted\n",
    );
  });

  it("writes nothing when the run does not converge", async () => {
    const root = makeVault({ [SOURCE_PATH]: NOTE });
    const before = snapshot(root);
    const report = await ingest(root, new ScriptedProvider([[aPage().withSources().build()]]));
    expect(report).toMatchObject({ converged: false, stopReason: "max_iter", pages: [], error: null });
    // The user's sentence, not the model's instruction.
    expect(report.issues[0]).toMatch(/^The model did not cite the note as a source of the page ".+"\.$/);
    expect(snapshot(root)).toEqual(before);
  });

  it("writes nothing when cancelled, even after the pages were generated", async () => {
    const root = makeVault({ [SOURCE_PATH]: NOTE });
    const before = snapshot(root);
    const controller = new AbortController();
    const provider = new ScriptedProvider([
      () => {
        controller.abort();
        return Promise.resolve([concept()]);
      },
    ]);
    const report = await ingest(root, provider, { signal: controller.signal });
    expect(report).toMatchObject({ converged: false, stopReason: "cancelled", error: { kind: "cancelled" } });
    expect(snapshot(root)).toEqual(before);
  });

  it("plans without writing in a dry run", async () => {
    const root = makeVault({ [SOURCE_PATH]: NOTE });
    const before = snapshot(root);
    const report = await ingest(root, new ScriptedProvider([[concept()]]), { dryRun: true });
    expect(report).toMatchObject({ converged: true, dryRun: true, pages: [{ action: "created" }] });
    expect(snapshot(root)).toEqual(before);
  });

  it("refuses a remote provider in local-only mode before reading the note or calling it", async () => {
    const root = makeVault({ [SOURCE_PATH]: NOTE });
    const remote = new ScriptedProvider([[concept()]], { name: "remote", isLocal: false });
    const report = await ingest(root, remote, { settings: settings({ localOnly: true }) });
    expect(report.error).toMatchObject({ kind: "perimeter" });
    expect(remote.analyzeCalls).toHaveLength(0);
  });

  it("never sends a note from an excluded folder", async () => {
    const root = makeVault({ [SOURCE_PATH]: NOTE });
    const provider = new ScriptedProvider([[concept()]]);
    const report = await ingest(root, provider, { settings: settings({ excludedFolders: ["notes"] }) });
    expect(report.error).toMatchObject({ kind: "perimeter", message: expect.stringContaining("Excluded folders") });
    expect(provider.analyzeCalls).toHaveLength(0);
  });

  it("keeps excluded folders out of the model's view of the wiki, even inside the wiki folder", async () => {
    const root = makeVault({
      [SOURCE_PATH]: "# Source note\n\nThe Example concept and the Secret Project are mentioned here.\n",
      "wiki/concepts/Example concept.md": "---\ntitle: Example concept\n---\n\nShareable words.",
      "wiki/private/Secret Project.md": "---\ntitle: Secret Project\n---\n\nConfidential salaries.",
    });
    const provider = new ScriptedProvider([[concept()]]);
    await ingest(root, provider, { settings: settings({ excludedFolders: ["wiki/private"] }) });
    const seen = `${provider.analyzeCalls[0]?.vaultContext ?? ""}\n${provider.generateCalls[0]?.retrievalContext ?? ""}`;
    expect(seen).toContain("Shareable words.");
    expect(seen).not.toContain("Confidential");
    expect(seen).not.toContain("Secret Project");
  });

  it("judges a note by the folder it really lives in, not a link to it, and ignores case", async () => {
    const root = makeVault({ "Private/Diary.md": "# Diary\n\nPrivate thoughts about the Example concept.\n" });
    const { symlinkSync } = await import("node:fs");
    symlinkSync(`${root}/Private`, `${root}/Link`);
    for (const [notePath, excluded] of [["Link/Diary.md", "Private"], ["Private/Diary.md", "private"]] as const) {
      const provider = new ScriptedProvider([[concept()]]);
      const report = await ingest(root, provider, { notePath, settings: settings({ excludedFolders: [excluded] }) });
      expect(report.error?.kind, notePath).toBe("perimeter");
      expect(provider.analyzeCalls).toHaveLength(0);
    }
  });

  it.each([
    ["a missing note", {}, "notes/Source note.md", /no note/],
    ["a binary file", { "notes/Source note.md": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]) }, SOURCE_PATH, /binary/],
    ["invalid UTF-8", { "notes/Source note.md": new Uint8Array([0x41, 0xff, 0xfe, 0x41]) }, SOURCE_PATH, /UTF-8/],
    ["an empty note", { "notes/Source note.md": "---\ntags: [x]\n---\n\n   \n" }, SOURCE_PATH, /no text/],
    ["a path outside the vault", {}, "../outside.md", /outside the vault/],
    ["a file that is not markdown", { "notes/pic.png": "x" }, "notes/pic.png", /not a Markdown note/],
    ["a page of the wiki itself", { "wiki/concepts/X.md": "# X\n\ntext" }, "wiki/concepts/X.md", /page of the wiki/],
  ])("refuses %s with a clear message and calls no provider", async (_name, files, notePath, message) => {
    const root = makeVault(files);
    const provider = new ScriptedProvider([[concept()]]);
    const report = await ingest(root, provider, { notePath });
    expect(report.error?.kind).toBe("input");
    expect(report.error?.message).toMatch(message);
    expect(provider.analyzeCalls).toHaveLength(0);
  });

  it("refuses a note over the size limit, naming the setting", async () => {
    const root = makeVault({ [SOURCE_PATH]: `# Big\n\n${"word ".repeat(3000)}` });
    const report = await ingest(root, new ScriptedProvider([[concept()]]), { settings: settings({ maxNoteBytes: 10_000 }) });
    expect(report.error).toMatchObject({ kind: "input", message: expect.stringContaining("Largest note") });
  });

  it("keeps what each note contributed when a second note yields the same page, and merges sources", async () => {
    const root = makeVault({ [SOURCE_PATH]: NOTE, "notes/Second.md": "# Second\n\nMore about the Example concept." });
    await ingest(root, new ScriptedProvider([[concept("First version.")]]));
    const second: WikiPage = { ...concept("Second version."), frontmatter: { sources: ["notes/Second.md"], lang: "en", tags: [] } };
    const report = await ingest(root, new ScriptedProvider([[second]]), { notePath: "notes/Second.md" });
    expect(report.pages).toEqual([expect.objectContaining({ path: "wiki/concepts/Example concept.md", action: "merged" })]);
    const page = readVaultFile(root, "wiki/concepts/Example concept.md");
    expect(page).toMatch(/\*From \[\[notes\/Source note\|Source note\]\]\*\n\nFirst version\.\n\n%% \/synapse:source %%/);
    expect(page).toMatch(/\*From \[\[notes\/Second\|Source note\]\]\*\n\nSecond version\.\n\n%% \/synapse:source %%/);
    expect(page).toMatch(/sources:\n {2}- notes\/Source note.md\n {2}- notes\/Second.md/);
  });

  it("revises only a changed note's part of a page: what it no longer says disappears", async () => {
    const root = makeVault({ [SOURCE_PATH]: NOTE, "notes/Second.md": "# Second\n\nMore about the Example concept." });
    await ingest(root, new ScriptedProvider([[concept("First claim.\n\nA claim dropped later.")]]));
    const second: WikiPage = { ...concept("Second note's claim."), frontmatter: { sources: ["notes/Second.md"], lang: "en", tags: [] } };
    await ingest(root, new ScriptedProvider([[second]]), { notePath: "notes/Second.md" });
    const report = await ingest(root, new ScriptedProvider([[concept("First claim, revised.")]]));
    expect(report.pages[0]?.action).toBe("updated");
    const page = readVaultFile(root, "wiki/concepts/Example concept.md");
    expect(page).toContain("First claim, revised.");
    expect(page).not.toContain("A claim dropped later.");
    expect(page).toContain("Second note's claim.");
  });

  it("never overwrites a page the user edited: keeps every word and adds the new version below the edit", async () => {
    const root = makeVault({ [SOURCE_PATH]: NOTE });
    await ingest(root, new ScriptedProvider([[concept("Generated text.")]]));
    const path = `${root}/wiki/concepts/Example concept.md`;
    const { writeFileSync } = await import("node:fs");
    const edited = readVaultFile(root, "wiki/concepts/Example concept.md").replace("Generated text.", "Generated text, corrected by me.\n\nMy own paragraph.").replace("tags: []", "tags: []\nrating: 5");
    writeFileSync(path, edited);
    const report = await ingest(root, new ScriptedProvider([[concept("Fresh generated text.")]]));
    expect(report.pages[0]?.action).toBe("merged");
    expect(report.pages[0]?.detail).toContain("Your edit");
    const page = readVaultFile(root, "wiki/concepts/Example concept.md");
    expect(page).toContain("Generated text, corrected by me.\n\nMy own paragraph.");
    expect(page).toContain("rating: 5");
    expect(page.indexOf("Fresh generated text.")).toBeGreaterThan(page.indexOf("My own paragraph."));
    // The same update again changes nothing, and the page is not even rewritten.
    const before = readVaultFile(root, "wiki/concepts/Example concept.md");
    const again = await ingest(root, new ScriptedProvider([[concept("Fresh generated text.")]]));
    expect(again.pages[0]?.action).toBe("unchanged");
    expect(readVaultFile(root, "wiki/concepts/Example concept.md")).toBe(before);
  });

  it("rolls every change back when a write fails midway", async () => {
    const root = makeVault({ [SOURCE_PATH]: NOTE, "wiki/concepts/Old.md": "---\ntitle: Old\n---\n\nMine." });
    const before = snapshot(root);
    const disk = new NodeVault(root);
    let creates = 0;
    // The disk fills up on the third new file.
    const failing: VaultPort = {
      stat: (p) => disk.stat(p),
      readBytes: (p) => disk.readBytes(p),
      read: (p) => disk.read(p),
      list: (f) => disk.list(f),
      process: (p, fn) => disk.process(p, fn),
      createFolder: (p) => disk.createFolder(p),
      remove: (p) => disk.remove(p),
      replaceIfUnchanged: (p, e, n) => disk.replaceIfUnchanged(p, e, n),
      removeIfUnchanged: (p, e) => disk.removeIfUnchanged(p, e),
      append: (p, t) => disk.append(p, t),
      removeStrayTempFiles: (f) => disk.removeStrayTempFiles(f),
      create: async (p, c) => {
        creates += 1;
        if (creates === 3) throw new Error("ENOSPC: no space left on device");
        return disk.create(p, c);
      },
    };
    const pages = [concept(), aPage().titled("Old").withContent("New words.").build(), aPage().titled("Another").build(), aPage().titled("Third").build()];
    const report = await ingest(root, new ScriptedProvider([pages]), { vault: failing });
    expect(report.error).toMatchObject({ kind: "vault", message: expect.stringContaining("ENOSPC") });
    expect(report.error?.message).toContain("undone");
    expect(report.pages).toEqual([]);
    const after = snapshot(root);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    expect(after).toEqual(before);
  });

  it("spells links to pages whose file names differ from their titles", async () => {
    const root = makeVault({ [SOURCE_PATH]: NOTE });
    const pages = [
      aPage().titled("C#: a language").ofType("entity").withContent("A language.").build(),
      aPage().titled("Example concept").withContent("Written in [[C#: a language]] and [[C#: a language#History|its history]].").build(),
    ];
    await ingest(root, new ScriptedProvider([pages]));
    const page = readVaultFile(root, "wiki/concepts/Example concept.md");
    expect(page).toContain("[[C a language|C#: a language]] and [[C a language#History|its history]]");
    expect(snapshot(root)).toHaveProperty(["wiki/entities/C a language.md"]);
  });

  // With "page", a subject the user has a note on still gets a page (by default the note stands in for it: canon-notes.test.ts).
  it("does not let a new page shadow a note of the user's with the same name", async () => {
    const root = makeVault({ [SOURCE_PATH]: NOTE, "Research/Example concept.md": "# Mine" });
    const report = await ingestNote(
      { vault: new NodeVault(root), provider: new ScriptedProvider([[concept()]]), settings: { ...settings(), userNoteCanon: "page" }, now: NOW, linkExists: (n) => n === "Example concept" },
      { notePath: SOURCE_PATH },
    );
    expect(report.pages[0]?.path).toBe("wiki/concepts/Example concept (concept).md");
  });

  it("finds a page named after its type again on the next ingest instead of numbering a copy", async () => {
    const root = makeVault({ [SOURCE_PATH]: NOTE, "Research/Example concept.md": "# Mine" });
    const deps = { vault: new NodeVault(root), settings: { ...settings(), userNoteCanon: "page" as const }, now: NOW };
    await ingestNote({ ...deps, provider: new ScriptedProvider([[concept()]]) }, { notePath: SOURCE_PATH });
    const again = await ingestNote({ ...deps, provider: new ScriptedProvider([[concept()]]) }, { notePath: SOURCE_PATH });
    expect(again.pages).toEqual([expect.objectContaining({ path: "wiki/concepts/Example concept (concept).md", action: "unchanged" })]);
    expect(Object.keys(snapshot(root)).filter((p) => p.startsWith("wiki/concepts/"))).toEqual(["wiki/concepts/Example concept (concept).md"]);
  });

  it("writes a body that keeps the user's edited text whole (an agent editing in place) without repeating it", async () => {
    const root = makeVault({ [SOURCE_PATH]: NOTE });
    await ingest(root, new ScriptedProvider([[concept("Generated text.")]]));
    const { writeFileSync } = await import("node:fs");
    const path = "wiki/concepts/Example concept.md";
    writeFileSync(`${root}/${path}`, readVaultFile(root, path).replace("Generated text.", "Generated text, corrected by me."));
    const report = await ingest(root, new ScriptedProvider([[concept("Generated text, corrected by me.\n\nA paragraph the agent added.")]]));
    expect(report.pages[0]?.action).toBe("merged");
    const page = readVaultFile(root, path);
    expect(page.match(/corrected by me/g)).toHaveLength(1);
    expect(page).toContain("A paragraph the agent added.");
  });

  it("reports usage, cost and the provider", async () => {
    const root = makeVault({ [SOURCE_PATH]: NOTE });
    const provider = new ScriptedProvider([[concept()]], { name: "scripted", model: "scripted-1" }, 100);
    const report = await ingest(root, provider);
    expect(report.usage).toEqual({ inputTokens: 200, outputTokens: 0, costUsd: null, estimatedCalls: 0 });
    expect(report.provider).toEqual({ name: "scripted", mode: "local", isLocal: true, model: "scripted-1" });
  });

  it("has no price, not a cost of $0, for an unpriced model whose run failed before spending anything", async () => {
    const root = makeVault({ [SOURCE_PATH]: NOTE });
    const failing = new ScriptedProvider([new SynapseError("request", "401 from the server.")], { name: "scripted", model: "llama3.1:8b" });
    const report = await ingest(root, failing);
    expect(report.converged).toBe(false);
    expect(report.usage.costUsd).toBeNull();
    const priced = await ingest(root, new ScriptedProvider([new SynapseError("request", "401 from the server.")], { name: "scripted", model: "gpt-4.1-mini" }));
    expect(priced.usage.costUsd).toBe(0);
  });
});
