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
  tab.display();
  return { harness, tab, controls };
}

/** Waits until what was saved is what the settings now hold (the saves the controls started are done). */
async function saved(harness: Harness): Promise<Record<string, unknown>> {
  await eventually(() => expect(harness.registered.data__).toEqual(harness.plugin.currentSettings));
  return harness.registered.data__ as Record<string, unknown>;
}

const EVERY_ROW = [
  "Backends › Ingest with",
  "Backends › Ask with",
  "Backends › Ask from",
  "Backends › Lint with",
  "Backends › Lint cost limit (USD)",
  "Backends › Vector search with",
  "Backends › Embedding model",
  "Wiki and limits › Wiki folder",
  "Wiki and limits › Wiki language",
  "Wiki and limits › Subjects you have a note on",
  "Wiki and limits › Review before writing",
  "Wiki and limits › Generation attempts",
  "Wiki and limits › Token budget",
  "Wiki and limits › Request timeout",
  "Wiki and limits › First token timeout",
  "Wiki and limits › Run timeout",
  "Wiki and limits › Largest note",
  "Privacy › Local-only mode",
  "Privacy › Excluded folders",
  "Privacy › Log prompts and replies",
  "Local: Ollama › Host",
  "Local: Ollama › Model",
  "Local: Ollama › Embedding model",
  "Local: Ollama › Max output tokens",
  "Local: Ollama › Context window",
  "Local: Ollama › Test connection",
  "API: Anthropic › Model",
  "API: Anthropic › API key",
  "API: Anthropic › Base URL",
  "API: Anthropic › Max output tokens",
  "API: Anthropic › Test connection",
  "API: OpenAI-compatible › Service",
  "API: OpenAI-compatible › Base URL",
  "API: OpenAI-compatible › Model",
  "API: OpenAI-compatible › API key",
  "API: OpenAI-compatible › Max output tokens",
  "API: OpenAI-compatible › Context window",
  "API: OpenAI-compatible › Test connection",
  "CLI agent through the bridge › Bridge URL",
  "CLI agent through the bridge › Bridge token",
  "CLI agent through the bridge › Max turns",
  "CLI agent through the bridge › Max budget",
  "CLI agent through the bridge › Test connection",
];

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
    const rows = new Set(EVERY_ROW.map((row) => row.split(" › ")[1]));
    expect(named.size).toBeGreaterThan(5);
    expect([...named].filter((name) => !rows.has(name))).toEqual([]);
  });

  it("renders every control, grouped by section, showing the settings in force", async () => {
    const { controls } = await openTab({ data: { version: 1, wikiFolder: "kb", maxIter: 4, excludedFolders: ["Private", "Journal"] } });
    expect(controls.rows()).toEqual(EVERY_ROW);
    expect(controls.text("Wiki and limits", "Wiki folder").getValue()).toBe("kb");
    expect(controls.text("Wiki and limits", "Generation attempts").getValue()).toBe("4");
    expect(controls.textArea("Privacy", "Excluded folders").getValue()).toBe("Private\nJournal");
    const ingest = controls.dropdown("Backends", "Ingest with");
    expect([...ingest.selectEl.options].map((o) => o.value)).toEqual(["offline", "ollama", "anthropic", "openai", "cli"]);
    expect(ingest.getValue()).toBe("offline");
    const vectors = controls.dropdown("Backends", "Vector search with");
    expect([...vectors.selectEl.options].map((o) => o.value)).toEqual(["none", "ollama", "openai"]);
    expect(vectors.getValue()).toBe("none");
  });

  it("renders the same rows declaratively for Obsidian 1.13's settings search", async () => {
    const { tab, controls } = await openTab();
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
    const { harness, controls } = await openTab();
    controls.dropdown("Backends", "Ingest with").setValue("ollama");
    controls.dropdown("Backends", "Vector search with").setValue("ollama");
    controls.text("Backends", "Embedding model").setValue(" nomic-embed-text ");
    controls.text("Wiki and limits", "Wiki folder").setValue("/Knowledge/");
    controls.text("Wiki and limits", "Generation attempts").setValue("5");
    controls.text("Wiki and limits", "Token budget").setValue("0");
    controls.text("Backends", "Lint cost limit (USD)").setValue("0.25");
    controls.text("Wiki and limits", "Request timeout").setValue("90");
    controls.text("Wiki and limits", "Run timeout").setValue("1200");
    controls.text("Wiki and limits", "Largest note").setValue("256");
    controls.toggle("Privacy", "Local-only mode").setValue(true);
    controls.textArea("Privacy", "Excluded folders").setValue("Private\n\n /Journal/ \nPrivate");
    controls.toggle("Privacy", "Log prompts and replies").setValue(true);
    controls.text("Local: Ollama", "Host").setValue("http://127.0.0.1:11500");
    controls.text("API: Anthropic", "Model").setValue("claude-opus-4-1");
    controls.text("CLI agent through the bridge", "Max turns").setValue("12");
    controls.text("CLI agent through the bridge", "Max budget").setValue("0.5");
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
    const { harness, controls } = await openTab();
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
    const { harness, controls } = await openTab();
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

  it("'Test connection' reports the Ollama server in words: version, models, what to fix", async () => {
    const { controls } = await openTab({ data: { version: 1, profiles: { ollama: { host: ollama.url, model: "llama3.2", embeddingModel: "mxbai-embed-large" } } } });
    const button = controls.button("Local: Ollama", "Test connection");
    button.simulateClick__();
    const out = controls.descOf(button.buttonEl);
    await eventually(() => expect(out.textContent).not.toContain("Testing"));
    expect(out.textContent).toContain("version 0.6.2");
    expect(out.textContent).toContain("llama3.2:latest (completion, tools)");
    expect(out.textContent).toMatch(/To fix: .*mxbai-embed-large/);
    // The model pickers now offer what the server reported: chat models and embedding models apart.
    const model = controls.dropdown("Local: Ollama", "Model");
    expect([...model.selectEl.options].map((o) => o.value)).toEqual(expect.arrayContaining(["llama3.2:latest", "qwen3:8b"]));
    expect([...model.selectEl.options].map((o) => o.value)).not.toContain("nomic-embed-text:latest");
    const embedding = controls.dropdown("Local: Ollama", "Embedding model");
    expect([...embedding.selectEl.options].map((o) => o.text)).toEqual(["Choose a model", "nomic-embed-text:latest", "mxbai-embed-large (not on this server)"]);
  });

  it("picks the Ollama model from the list the server reports", async () => {
    const { harness, controls } = await openTab({ data: { version: 1, profiles: { ollama: { host: ollama.url } } } });
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
    const { controls } = await openTab({ data: { version: 1, profiles: { ollama: { host: url, model: "llama3.2" } } } });
    const button = controls.button("Local: Ollama", "Test connection");
    button.simulateClick__();
    const out = controls.descOf(button.buttonEl);
    await eventually(() => expect(out.textContent).not.toContain("Testing"));
    expect(out.textContent).toContain("could not be reached");
    expect(out.textContent).toContain("To fix:");
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
    const { harness, controls } = await openTab({ data: { version: 1, profiles: { cli: { bridgeUrl: bridge.url, tokenSecret: "my-bridge-token" } } } });
    if (token) harness.app.secretStorage.setSecret("my-bridge-token", token);
    const button = controls.button("CLI agent through the bridge", "Test connection");
    button.simulateClick__();
    const out = controls.descOf(button.buttonEl);
    await eventually(() => expect(out.textContent).not.toContain("Testing"));
    return out.textContent ?? "";
  }

  it("'Test connection' shows the bridge's health in words", async () => {
    const text = await testConnection(TOKEN);
    expect(text).toContain(`The bridge 0.1.0 answers at ${bridge.url}`);
    expect(text).toMatch(/Claude Agent SDK/);
  });

  it("says what to fix when the token is missing", async () => {
    expect(await testConnection(null)).toMatch(/To fix: .*No bridge token is set/);
  });

  it("says what to fix when the token is wrong", async () => {
    expect(await testConnection("a-wrong-token-of-enough-length")).toMatch(/To fix: .*token/i);
  });
});
