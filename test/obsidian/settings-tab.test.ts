import type { RequestUrlParam } from "obsidian";
import { PluginSettingTab } from "obsidian-test-mocks/obsidian";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { SettingsSchema } from "../../src/settings/schema";
import { startScriptedServer, type ScriptedServer } from "../helpers/scripted-server";
import { nodeRequestUrl } from "./node-request-url";
import { loadPlugin, type Harness } from "./plugin-harness";
import { ControlRecorder } from "./settings-controls";
import { eventually } from "../helpers/eventually";

// Obsidian's requestUrl, replaced by one that really reaches the scripted servers.
const transport = vi.hoisted(() => ({ requestUrl: null as null | ((p: RequestUrlParam) => Promise<unknown>) }));
vi.mock("obsidian", async (importOriginal) => {
  const original = await importOriginal<typeof import("obsidian")>();
  return { ...original, requestUrl: (p: RequestUrlParam) => (transport.requestUrl ? transport.requestUrl(p) : original.requestUrl(p)) };
});

let ollama: ScriptedServer;
beforeAll(async () => {
  transport.requestUrl = nodeRequestUrl();
  ollama = await startScriptedServer({
    protocol: "ollama",
    version: "0.6.2",
    models: [
      { name: "llama3.2:latest", capabilities: ["completion", "tools"] },
      { name: "qwen3:8b", capabilities: ["completion", "thinking"] },
      { name: "nomic-embed-text:latest", capabilities: ["embedding"] },
    ],
  });
});
afterAll(async () => {
  await ollama.close();
});
afterEach(() => vi.restoreAllMocks());

async function openTab(options: Parameters<typeof loadPlugin>[0] = {}): Promise<{ harness: Harness; tab: PluginSettingTab; controls: ControlRecorder }> {
  const harness = await loadPlugin(options);
  const controls = new ControlRecorder();
  const tab = PluginSettingTab.fromOriginalType2__(harness.registered.settingTabs__[0] as Parameters<typeof PluginSettingTab.fromOriginalType2__>[0]);
  controls.scope(tab.containerEl);
  tab.display();
  return { harness, tab, controls };
}

/** Waits until what was saved is what the settings now hold (the saves the controls started are done). */
async function saved(harness: Harness): Promise<Record<string, unknown>> {
  await eventually(() => expect(harness.registered.data__).toEqual(harness.plugin.currentSettings));
  return harness.registered.data__ as Record<string, unknown>;
}

const BACKENDS = [
  "Backends › Ingest with",
  "Backends › Ask with",
  "Backends › Ask from",
  "Backends › Lint with",
  "Backends › Lint cost limit (USD)",
  "Backends › Vector search with",
];
/** The routing with vector search on: its model's row shows too. */
const BACKENDS_WITH_VECTORS = [...BACKENDS, "Backends › Embedding model"];
const OLLAMA = [
  "Local: Ollama › Host",
  "Local: Ollama › Model",
  "Local: Ollama › Embedding model",
  "Local: Ollama › Max output tokens",
  "Local: Ollama › Context window (tokens)",
  "Local: Ollama › Test connection",
];
const ANTHROPIC = ["API: Anthropic › Model", "API: Anthropic › API key", "API: Anthropic › Base URL", "API: Anthropic › Max output tokens", "API: Anthropic › Test connection"];
const OPENAI = [
  "API: OpenAI-compatible › Service",
  "API: OpenAI-compatible › Base URL",
  "API: OpenAI-compatible › Model",
  "API: OpenAI-compatible › API key",
  "API: OpenAI-compatible › Max output tokens",
  "API: OpenAI-compatible › Context window (tokens)",
  "API: OpenAI-compatible › Test connection",
];
const CLI = [
  "CLI agent through the bridge › Bridge URL",
  "CLI agent through the bridge › Bridge token",
  "CLI agent through the bridge › Max turns",
  "CLI agent through the bridge › Max budget (USD)",
  "CLI agent through the bridge › Test connection",
];
const GENERAL = [
  "Wiki and limits › Wiki folder",
  "Wiki and limits › Wiki language",
  "Wiki and limits › Subjects you have a note on",
  "Wiki and limits › Review before writing",
  "Wiki and limits › Generation attempts",
  "Wiki and limits › Token budget",
  "Wiki and limits › Request timeout (seconds)",
  "Wiki and limits › First token timeout (seconds)",
  "Wiki and limits › Run timeout (seconds)",
  "Wiki and limits › Largest note (KB)",
  "Privacy › Local-only mode",
  "Privacy › Excluded folders",
  "Privacy › Log prompts and replies",
];
/** With the defaults (Offline for everything) only the routing, the wiki and privacy show. */
const DEFAULT_ROWS = [...BACKENDS, ...GENERAL];
/** Every backend in use: every row. */
const EVERY_ROW = [...BACKENDS_WITH_VECTORS, ...OLLAMA, ...ANTHROPIC, ...OPENAI, ...CLI, ...GENERAL];
const EVERY_BACKEND = { version: 1, operations: { ingest: "ollama", query: "anthropic", lint: "openai" }, embedding: { provider: "none" } };
/** Settings that route ingest to the CLI agent as well, so every section shows. */
const ALL = (extra: Record<string, unknown> = {}) => ({ ...EVERY_BACKEND, ...extra, operations: { ingest: "ollama", query: "anthropic", lint: "cli", ...((extra.operations as object | undefined) ?? {}) }, embedding: { provider: "openai" } });

describe("the settings tab", () => {
  it("has every setting that a message tells the user to change", async () => {
    const fs = await import("node:fs");
    const path = await import("node:path");
    const join = (...parts: string[]) => path.join(...parts);
    const readFileSync = (file: string) => fs.readFileSync(file, "utf8");
    const readdirSync = (dir: string) => fs.readdirSync(dir, { recursive: true, encoding: "utf8" });
    const root = join(__dirname, "..", "..", "src");
    const files = readdirSync(root).filter((f) => f.endsWith(".ts")).map((f) => join(root, f));
    const named = new Set<string>();
    for (const file of files) {
      for (const match of readFileSync(file).matchAll(/(?:setting|[Rr]aise) \\?"([A-Z][A-Za-z ]+)\\?"/g)) named.add(match[1] ?? "");
    }
    const rows = EVERY_ROW.map((row) => row.split(" › ")[1] ?? "");
    expect(named.size).toBeGreaterThan(5);
    // A row's name may add its unit: "Context window" in a message is the row "Context window (tokens)".
    expect([...named].filter((name) => !rows.some((row) => row === name || row.startsWith(`${name} (`)))).toEqual([]);
  });

  it("renders every control, grouped by section, showing the settings in force", async () => {
    const { controls } = await openTab({ data: { ...ALL(), wikiFolder: "kb", maxIter: 4, excludedFolders: ["Private", "Journal"] } });
    expect(controls.rows()).toEqual(EVERY_ROW);
    expect(controls.text("Wiki and limits", "Wiki folder").getValue()).toBe("kb");
    expect(controls.text("Wiki and limits", "Generation attempts").getValue()).toBe("4");
    expect(controls.textArea("Privacy", "Excluded folders").getValue()).toBe("Private\nJournal");
    const ingest = controls.dropdown("Backends", "Ingest with");
    expect([...ingest.selectEl.options].map((o) => o.value)).toEqual(["offline", "ollama", "anthropic", "openai", "cli"]);
    expect(ingest.getValue()).toBe("ollama");
    const vectors = controls.dropdown("Backends", "Vector search with");
    expect([...vectors.selectEl.options].map((o) => o.value)).toEqual(["none", "ollama", "openai"]);
    expect(vectors.getValue()).toBe("openai");
  });

  it("shows only what is in use: the routing, and the section of each backend an operation or vector search uses", async () => {
    // Each tab gets its own recorder, so the spies of the one before go first.
    const rowsOf = async (data?: Record<string, unknown>) => {
      vi.restoreAllMocks();
      return (await openTab(data ? { data } : {})).controls.rows();
    };
    expect(await rowsOf()).toEqual(DEFAULT_ROWS);
    expect(await rowsOf({ version: 1, operations: { query: "anthropic" } })).toEqual([...BACKENDS, ...ANTHROPIC, ...GENERAL]);
    expect(await rowsOf({ version: 1, embedding: { provider: "ollama" } })).toEqual([...BACKENDS_WITH_VECTORS, ...OLLAMA, ...GENERAL]);
    expect(await rowsOf({ version: 1, operations: { lint: "cli", ingest: "openai" } })).toEqual([...BACKENDS, ...OPENAI, ...CLI, ...GENERAL]);
  });

  it("shows a backend's section as soon as an operation is routed to it, and hides it when none is", async () => {
    const { harness, controls } = await openTab();
    controls.dropdown("Backends", "Ingest with").setValue("ollama");
    await eventually(() => expect(controls.rows()).toEqual([...BACKENDS, ...OLLAMA, ...GENERAL]));
    controls.dropdown("Backends", "Ingest with").setValue("offline");
    await eventually(() => expect(controls.rows()).toEqual(DEFAULT_ROWS));
    expect(harness.plugin.currentSettings.operations.ingest).toBe("offline");
  });

  it("hides unused sections in the declarative rendering too, and shows them again on a change of backend", async () => {
    const { tab, controls } = await openTab();
    controls.reset();
    tab.update();
    tab.renderTab__();
    expect(controls.rows()).toEqual(DEFAULT_ROWS);
    controls.dropdown("Backends", "Ask with").setValue("anthropic");
    await eventually(() => expect(controls.rows()).toEqual([...BACKENDS, ...ANTHROPIC, ...GENERAL]));
  });

  it("labels every control, with one sentence per description", async () => {
    const { tab } = await openTab({ data: ALL() });
    // The mocks build a row as settingEl > [controlEl, infoEl > [nameEl, descEl]].
    const rows = [...tab.containerEl.children].filter((el) => !el.classList.contains("setting-item-heading"));
    expect(rows.length).toBeGreaterThan(30);
    for (const row of rows) {
      const name = row.children[1]?.children[0]?.textContent ?? "";
      const desc = row.children[1]?.children[1]?.textContent ?? "";
      expect(name).toMatch(/^[A-Z]/);
      expect(desc.split(/[.!?](?:\s|$)/).filter((part) => part.trim() !== "").length, `${name}: ${desc}`).toBeLessThanOrEqual(1);
    }
  });

  it("takes numbers as typed text, decimal comma included, never through a number field", async () => {
    const { harness, controls } = await openTab({ data: ALL() });
    const budget = controls.text("CLI agent through the bridge", "Max budget (USD)");
    expect(budget.inputEl.type).not.toBe("number");
    budget.setValue("0,50");
    await eventually(() => expect(harness.plugin.currentSettings.profiles.cli.maxBudgetUsd).toBe(0.5));
  });

  it("says a setting's problem in a sentence that names it as shown, never by its stored field", async () => {
    const { controls } = await openTab();
    const folder = controls.text("Wiki and limits", "Wiki folder");
    folder.setValue("C:\\wiki");
    await eventually(() => expect(controls.descOf(folder.inputEl).querySelector(".synapse-setting-problem")?.textContent).toMatch(/^The wiki folder "C:\\wiki" is an absolute path/));
    expect(controls.descOf(folder.inputEl).textContent).not.toContain("wikiFolder");
  });

  it("names a value reset on load by its row, under its own heading, not as 'Attention'", async () => {
    const { tab } = await openTab({ data: { version: 1, profiles: { ollama: { host: 42 } } } });
    const note = tab.containerEl.querySelector(".synapse-settings-note");
    expect(note?.children[1]?.children[0]?.textContent).toBe("Reset to its default");
    expect(note?.children[1]?.children[1]?.textContent).toBe('"Host" under Local: Ollama was reset to its default. Its saved value was not text.');
    expect(tab.containerEl.textContent).not.toMatch(/Attention|profiles\.ollama|Invalid input/);
  });

  it("has a row for every setting a problem names", async () => {
    const { SETTING_ROWS } = await import("../../src/settings/setting-names");
    const shown = new Set(EVERY_ROW);
    expect(Object.values(SETTING_ROWS).map(([section, row]) => `${section} › ${row}`).filter((row) => !shown.has(row))).toEqual([]);
  });

  it("renders the same rows declaratively for Obsidian 1.13's settings search", async () => {
    const { tab, controls } = await openTab({ data: ALL() });
    const definitions = tab.getSettingDefinitions() as { heading?: string; items?: { name: string }[] }[];
    const names = definitions.flatMap((group) => (group.items ?? []).map((item) => `${group.heading} › ${item.name}`));
    for (const row of EVERY_ROW) expect(names).toContain(row);
    // The mocks render definitions the way Obsidian 1.13 does; every row gets its control.
    controls.reset();
    tab.update();
    tab.renderTab__();
    expect(controls.rows()).toEqual(EVERY_ROW);
  });

  it("saves each change, and what it saves is valid settings", async () => {
    const { harness, controls } = await openTab({ data: ALL() });
    controls.dropdown("Backends", "Ingest with").setValue("ollama");
    controls.dropdown("Backends", "Vector search with").setValue("ollama");
    controls.text("Backends", "Embedding model").setValue(" nomic-embed-text ");
    controls.text("Wiki and limits", "Wiki folder").setValue("/Knowledge/");
    controls.text("Wiki and limits", "Generation attempts").setValue("5");
    controls.text("Wiki and limits", "Token budget").setValue("0");
    controls.text("Backends", "Lint cost limit (USD)").setValue("0.25");
    controls.text("Wiki and limits", "Request timeout (seconds)").setValue("90");
    controls.text("Wiki and limits", "Run timeout (seconds)").setValue("1200");
    controls.text("Wiki and limits", "Largest note (KB)").setValue("256");
    controls.toggle("Privacy", "Local-only mode").setValue(true);
    controls.textArea("Privacy", "Excluded folders").setValue("Private\n\n /Journal/ \nPrivate");
    controls.toggle("Privacy", "Log prompts and replies").setValue(true);
    controls.text("Local: Ollama", "Host").setValue("http://127.0.0.1:11500");
    controls.text("API: Anthropic", "Model").setValue("claude-opus-4-1");
    controls.text("CLI agent through the bridge", "Max turns").setValue("12");
    controls.text("CLI agent through the bridge", "Max budget (USD)").setValue("0,5");
    const data = await saved(harness);
    expect(data).toMatchObject({
      version: 1,
      wikiFolder: "Knowledge",
      maxIter: 5,
      tokenBudget: 0,
      lintCostLimitUsd: 0.25,
      requestTimeoutSeconds: 90,
      maxNoteBytes: 256 * 1024,
      runTimeoutSeconds: 1200,
      localOnly: true,
      excludedFolders: ["Private", "Journal"],
      logContent: true,
      operations: { ingest: "ollama" },
      embedding: { provider: "ollama", model: "nomic-embed-text" },
      profiles: { ollama: { host: "http://127.0.0.1:11500" }, anthropic: { model: "claude-opus-4-1" }, cli: { maxTurns: 12, maxBudgetUsd: 0.5 } },
    });
    expect(SettingsSchema.parse(data)).toEqual(data);
    expect(harness.plugin.currentSettings.maxIter).toBe(5);
  });

  it("chooses the wiki's language from a dropdown that starts with each note's own", async () => {
    const { harness, controls } = await openTab();
    const language = controls.dropdown("Wiki and limits", "Wiki language");
    const options = [...language.selectEl.options];
    expect(options[0]).toMatchObject({ value: "auto", text: "Same as each note" });
    expect(options.map((o) => o.value)).toEqual(expect.arrayContaining(["en", "de", "fr", "es", "ja", "zh", "ko", "ru"]));
    expect(options.find((o) => o.value === "de")?.text).toBe("Deutsch (de)");
    expect(language.getValue()).toBe("auto");
    language.setValue("ja");
    expect(await saved(harness)).toMatchObject({ wikiLanguage: "ja" });
  });

  it("chooses what a page about a subject the user has a note on does, linking to the note by default", async () => {
    const { harness, controls } = await openTab();
    const canon = controls.dropdown("Wiki and limits", "Subjects you have a note on");
    expect([...canon.selectEl.options].map((o) => [o.value, o.text])).toEqual([
      ["link", "Link to my note"],
      ["page", "Write a page that links to it"],
    ]);
    expect(canon.getValue()).toBe("link");
    canon.setValue("page");
    expect(await saved(harness)).toMatchObject({ userNoteCanon: "page" });
  });

  it("chooses when to review before writing, 'when existing pages change' by default", async () => {
    const { harness, controls } = await openTab();
    const review = controls.dropdown("Wiki and limits", "Review before writing");
    expect([...review.selectEl.options].map((o) => [o.value, o.text])).toEqual([
      ["always", "Always"],
      ["changes", "When existing pages change"],
      ["never", "Never"],
    ]);
    expect(review.getValue()).toBe("changes");
    review.setValue("always");
    expect(await saved(harness)).toMatchObject({ reviewMode: "always" });
  });

  it("keeps a wiki language set outside the list selectable", async () => {
    const { controls } = await openTab({ data: { version: 1, wikiLanguage: "sw" } });
    expect(controls.dropdown("Wiki and limits", "Wiki language").getValue()).toBe("sw");
  });

  it("refuses an invalid number, says why on the row, and keeps the last valid value", async () => {
    const { harness, controls } = await openTab();
    const attempts = controls.text("Wiki and limits", "Generation attempts");
    attempts.setValue("25");
    expect(controls.descOf(attempts.inputEl).textContent).toContain("Enter a whole number from 1 to 10.");
    attempts.setValue("two");
    expect(harness.plugin.currentSettings.maxIter).toBe(3);
    attempts.setValue("2");
    await saved(harness);
    expect(controls.descOf(attempts.inputEl).textContent).not.toContain("Enter a whole number");
    expect(harness.plugin.currentSettings.maxIter).toBe(2);
  });

  it("fills the base URL from the OpenAI-compatible service, and recognises a known URL typed by hand", async () => {
    const { harness, controls } = await openTab({ data: ALL() });
    const baseUrl = controls.text("API: OpenAI-compatible", "Base URL");
    controls.dropdown("API: OpenAI-compatible", "Service").setValue("openrouter");
    await eventually(() => expect(baseUrl.inputEl.value).toBe("https://openrouter.ai/api/v1"));
    expect(harness.plugin.currentSettings.profiles.openai).toMatchObject({ preset: "openrouter", baseUrl: "https://openrouter.ai/api/v1" });
    baseUrl.setValue("http://127.0.0.1:1234/v1/");
    await saved(harness);
    expect(harness.plugin.currentSettings.profiles.openai.preset).toBe("lmstudio");
    baseUrl.setValue("http://gpu-box.lan:8000/v1");
    await saved(harness);
    expect(harness.plugin.currentSettings.profiles.openai).toMatchObject({ preset: "custom", baseUrl: "http://gpu-box.lan:8000/v1" });
  });

  it("keeps only secret names in data.json: the keys stay in Obsidian's secret storage", async () => {
    const { harness, controls } = await openTab({ data: ALL() });
    const secrets = {
      "my-anthropic-key": "sk-ant-api03-SECRETVALUE-anthropic-0123456789",
      "my-openai-key": "sk-proj-SECRETVALUE-openai-0123456789",
      "bridge-token": "bridge-SECRETVALUE-token-0123456789",
    };
    for (const [name, value] of Object.entries(secrets)) harness.app.secretStorage.setSecret(name, value);
    controls.secret("API: Anthropic", "API key").pick("my-anthropic-key");
    controls.secret("API: OpenAI-compatible", "API key").pick("my-openai-key");
    controls.secret("CLI agent through the bridge", "Bridge token").pick("bridge-token");
    controls.text("API: Anthropic", "Model").setValue("claude-opus-4-1");
    const data = await saved(harness);
    expect(data).toMatchObject({
      profiles: { anthropic: { apiKeySecret: "my-anthropic-key" }, openai: { apiKeySecret: "my-openai-key" }, cli: { tokenSecret: "bridge-token" } },
    });
    const written = JSON.stringify(data);
    for (const value of Object.values(secrets)) expect(written).not.toContain(value);
    expect(written).not.toContain("SECRETVALUE");
  });

  async function testOllama(profile: Record<string, unknown>): Promise<{ out: HTMLElement; controls: ControlRecorder }> {
    const { controls } = await openTab({ data: { version: 1, operations: { ingest: "ollama" }, profiles: { ollama: { host: ollama.url, ...profile } } } });
    const button = controls.button("Local: Ollama", "Test connection");
    button.simulateClick__();
    const out = controls.descOf(button.buttonEl);
    await eventually(() => expect(out.querySelector(".synapse-readiness-headline")).not.toBeNull());
    return { out, controls };
  }
  const headline = (out: HTMLElement) => out.querySelector(".synapse-readiness-headline")?.textContent;
  const lines = (out: HTMLElement) => [...(out.querySelector(".synapse-readiness")?.children ?? [])].slice(1).map((l) => l.textContent);

  it("'Test connection' says ready in one headline, with the context window in use, and at most three lines", async () => {
    const { out, controls } = await testOllama({ model: "llama3.2", embeddingModel: "nomic-embed-text" });
    expect(headline(out)).toBe("Ready: Ollama 0.6.2 answers, with a context window of up to 8,192 tokens.");
    expect(lines(out).length).toBeLessThanOrEqual(3);
    // "llama3.2" is the server's "llama3.2:latest": the picker shows it as the server names it, not as missing.
    const model = controls.dropdown("Local: Ollama", "Model");
    expect(model.getValue()).toBe("llama3.2");
    expect(model.selectEl.selectedOptions[0]?.text).toBe("llama3.2:latest");
    expect([...model.selectEl.options].map((o) => o.text).join(" ")).not.toContain("not on this server");
    expect([...model.selectEl.options].map((o) => o.text)).not.toContain("nomic-embed-text:latest");
  });

  it("'Test connection' says the model is missing, and what to fix first", async () => {
    const { out, controls } = await testOllama({ model: "mistral", embeddingModel: "mxbai-embed-large" });
    expect(headline(out)).toBe("Ollama 0.6.2 answers, but the model is missing.");
    expect(lines(out)[0]).toMatch(/ollama pull mistral/);
    expect(lines(out).length).toBeLessThanOrEqual(3);
    const embedding = controls.dropdown("Local: Ollama", "Embedding model");
    expect([...embedding.selectEl.options].map((o) => o.text)).toEqual(["Choose a model", "nomic-embed-text:latest", "mxbai-embed-large (not on this server)"]);
  });

  it("'Test connection' says a backend without its key is not set up, not that it could not be reached", async () => {
    const { controls } = await openTab({ data: { version: 1, operations: { query: "anthropic" } } });
    const button = controls.button("API: Anthropic", "Test connection");
    button.simulateClick__();
    const out = controls.descOf(button.buttonEl);
    await eventually(() => expect(headline(out)).toBe("Anthropic is not set up yet."));
    expect(out.textContent).not.toContain("could not be reached");
  });

  it("picks the Ollama model from the list the server reports", async () => {
    const { harness, controls } = await openTab({ data: { version: 1, operations: { ingest: "ollama" }, profiles: { ollama: { host: ollama.url } } } });
    const model = controls.dropdown("Local: Ollama", "Model");
    expect([...model.selectEl.options].map((o) => o.text)).toEqual(["Load the models first"]);
    controls.extraButton("Local: Ollama", "Model").simulateClick__();
    await eventually(() => expect(model.selectEl.options.length).toBeGreaterThan(1));
    model.setValue("qwen3:8b");
    const data = await saved(harness);
    expect(data).toMatchObject({ profiles: { ollama: { model: "qwen3:8b" } } });
  });

  it("says what to fix when the server cannot be reached", async () => {
    const closed = await startScriptedServer({ protocol: "ollama" });
    const url = closed.url;
    await closed.close();
    const { controls } = await openTab({ data: { version: 1, operations: { ingest: "ollama" }, profiles: { ollama: { host: url, model: "llama3.2" } } } });
    const button = controls.button("Local: Ollama", "Test connection");
    button.simulateClick__();
    const out = controls.descOf(button.buttonEl);
    await eventually(() => expect(out.textContent).not.toContain("Testing"));
    expect(headline(out)).toBe("Ollama could not be reached.");
    expect(out.querySelector(".synapse-readiness-fix")?.textContent).toMatch(/ollama serve/);
    expect(out.querySelector(".synapse-readiness")?.classList.contains("is-problem")).toBe(true);
  });
});

describe("the CLI agent section against a real bridge", () => {
  const TOKEN = "bridge-token-for-the-settings-test-0123";
  let bridge: { url: string; close: () => Promise<void> };
  let vault: string;
  beforeAll(async () => {
    const fs = await import("node:fs");
    const os = await import("node:os");
    const path = await import("node:path");
    const { startBridgeServer } = await import("../../src/bridge/server");
    vault = fs.mkdtempSync(path.join(os.tmpdir(), "synapse-test-bridge-vault-"));
    bridge = await startBridgeServer({ vaults: [vault], token: TOKEN, port: 0, version: "0.1.0", env: { ANTHROPIC_API_KEY: "sk-ant-test" } });
  });
  afterAll(async () => {
    await bridge.close();
    const fs = await import("node:fs");
    fs.rmSync(vault, { recursive: true, force: true });
  });

  async function testConnection(token: string | null): Promise<string> {
    const { harness, controls } = await openTab({ data: { version: 1, operations: { ingest: "cli" }, profiles: { cli: { bridgeUrl: bridge.url, tokenSecret: "my-bridge-token" } } } });
    if (token) harness.app.secretStorage.setSecret("my-bridge-token", token);
    const button = controls.button("CLI agent through the bridge", "Test connection");
    button.simulateClick__();
    const out = controls.descOf(button.buttonEl);
    await eventually(() => expect(out.textContent).not.toContain("Testing"));
    return out.querySelector(".synapse-readiness")?.textContent ?? "";
  }

  it("'Test connection' shows the bridge's health in words", async () => {
    const text = await testConnection(TOKEN);
    expect(text).toMatch(/^(Ready: )?The bridge 0\.1\.0 answers/);
    expect(text).toMatch(/Claude Agent SDK/);
  });

  it("says what to fix when the token is missing", async () => {
    const text = await testConnection(null);
    expect(text).toMatch(/^The bridge is not set up yet\.Start the bridge in a terminal: synapse bridge --vault ".+"\. Put the token the bridge printed on start in the secret chosen under "Bridge token"/);
    expect(text).not.toMatch(/SYNAPSE_BRIDGE_TOKEN|npm run/);
  });

  it("says what to fix when the token is wrong", async () => {
    const text = await testConnection("a-wrong-token-of-enough-length");
    expect(text).not.toMatch(/^Ready/);
    expect(text).toMatch(/token/i);
  });
});
