/**
 * The wiki language the user chose reaches every backend through the ingest's run, never through
 * the orchestrator naming a backend: proven on the wire for the three model protocols, in the
 * bridge's request and prompt, and in the Offline provider's pages.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createRunContext } from "../../src/core/run-context";
import { systemPrompt } from "../../src/bridge/prompt";
import { IngestRequestSchema } from "../../src/core/bridge-protocol";
import { OfflineProvider } from "../../src/providers/offline/offline-provider";
import { createProvider } from "../../src/providers/factory";
import { DEFAULT_SETTINGS, SettingsSchema } from "../../src/settings/schema";
import { loadSettings } from "../../src/settings/load";
import { NodeVault } from "../../src/vault/node-vault";
import { ingestNote } from "../../src/wiki/ingest-note";
import type { ScriptedServer } from "../helpers/scripted-server";
import { fixtureNote } from "../helpers/fixture-notes";
import { NOTE_PATH, VALID, envFor, noteText, promptSent, startServer } from "./harness";

describe.each(["ollama", "anthropic", "openai"] as const)("the wiki language with %s", (protocol) => {
  let server: ScriptedServer;
  let vaultRoot: string;
  beforeAll(async () => {
    server = await startServer(protocol);
    vaultRoot = await mkdtemp(join(tmpdir(), "synapse-wiki-language-"));
    await mkdir(dirname(join(vaultRoot, NOTE_PATH)), { recursive: true });
    await writeFile(join(vaultRoot, NOTE_PATH), noteText());
  });
  afterAll(async () => {
    await server.close();
    await rm(vaultRoot, { recursive: true, force: true });
  });
  beforeEach(() => {
    server.reset();
    server.setScript(VALID);
  });

  async function prompts(wikiLanguage: string): Promise<{ analyze: string; generate: string }> {
    const env = envFor(protocol, server, { settings: { wikiLanguage } });
    const report = await ingestNote({ vault: new NodeVault(vaultRoot), provider: createProvider(protocol, env), settings: env.settings }, { notePath: NOTE_PATH, dryRun: true });
    expect(report.error).toBeNull();
    const [analyze, generate] = server.modelRequests().map((r) => promptSent(r.body));
    return { analyze: analyze ?? "", generate: generate ?? "" };
  }

  it("tells the model to write every page in the chosen language", async () => {
    const { analyze, generate } = await prompts("fr");
    expect(generate).toContain('Write every page, titles included, in French ("fr")');
    expect(generate).toContain('"frontmatter.lang" is "fr"');
    expect(generate).not.toContain("write in the source's language");
    // The analysis still reports the note's own language.
    expect(analyze).toContain("its main language as an ISO 639-1 code");
  });

  it("follows each note's language by default", async () => {
    const { generate } = await prompts("auto");
    expect(generate).toContain("write in the source's language");
    expect(generate).not.toContain("Write every page");
  });
});

describe("the wiki language setting", () => {
  it("defaults to each note's language", () => {
    expect(DEFAULT_SETTINGS.wikiLanguage).toBe("auto");
  });

  it.each(["german", "EN", "xx", "", "zh-TW"])("falls back to auto, with a warning, for %j in data.json", (value) => {
    const loaded = loadSettings({ version: 1, wikiLanguage: value, maxIter: 4 });
    expect(loaded.settings.wikiLanguage).toBe("auto");
    expect(loaded.settings.maxIter).toBe(4);
    expect(loaded.warnings.join(" ")).toMatch(/Wiki language/);
  });

  it("keeps any ISO 639-1 code", () => {
    expect(SettingsSchema.parse({ wikiLanguage: "sw" }).wikiLanguage).toBe("sw");
  });
});

describe("the wiki language with the bridge and the Offline provider", () => {
  it("asks the agent for pages in the chosen language, and only then", () => {
    expect(systemPrompt("wiki", "ja")).toContain('Write every page, titles included, in Japanese ("ja"), whatever the note\'s language, and set lang: ja.');
    expect(systemPrompt("wiki")).toContain("Write in the note's language.");
  });

  it("accepts a language code in a bridge request and refuses anything else", () => {
    const base = { vault: "/v", notePath: "n.md", wikiFolder: "wiki", maxTurns: 3, maxBudgetUsd: 1 };
    expect(IngestRequestSchema.safeParse({ ...base, wikiLanguage: "de" }).success).toBe(true);
    expect(IngestRequestSchema.safeParse(base).success).toBe(true);
    expect(IngestRequestSchema.safeParse({ ...base, wikiLanguage: "auto" }).success).toBe(false);
    expect(IngestRequestSchema.safeParse({ ...base, wikiLanguage: "German" }).success).toBe(false);
  });

  it("writes the Offline provider's fixed words in the chosen language and keeps the note's text and lang", async () => {
    const note = fixtureNote("de/Einstieg/Notizen anlegen.md");
    const provider = new OfflineProvider();
    const run = createRunContext({ source: note, wikiLanguage: "en" });
    const analysis = await provider.analyze(note.text, "", run);
    const [source] = await provider.generate({ analysis: analysis, note: "", related: "" }, run);
    expect(source?.content).toContain("> [!info] Extracted without a language model");
    expect(source?.content).not.toContain("Ohne Sprachmodell");
    // What the page mostly is — the note's own sentences — is German, and lang says so.
    expect(source?.frontmatter.lang).toBe("de");
    if (analysis.summary) expect(source?.content).toContain(analysis.summary);
  });
});
