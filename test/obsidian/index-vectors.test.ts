/**
 * Vector search inside the plugin: the configured embedding model embeds the vault in the
 * background once the text index answers, through Obsidian's requestUrl (here forwarded over
 * Node http to a scripted Ollama server, so the real SDK and transport run), with a status line;
 * vectors persist and load on the next start; a dead server or a choice that cannot work costs
 * one notice, and search goes on from text and links.
 */
import type { RequestUrlParam } from "obsidian";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { eventually } from "../helpers/eventually";
import { startScriptedServer, type ScriptedServer } from "../helpers/scripted-server";
import { nodeRequestUrl, type ForwardedCall } from "./node-request-url";
import { loadPlugin, statusTexts, type Harness } from "./plugin-harness";
import { readyIndex } from "../helpers/index-internals";

// Obsidian's requestUrl, replaced by one that really reaches the scripted server.
const transport = vi.hoisted(() => ({ requestUrl: null as null | ((p: RequestUrlParam) => Promise<unknown>) }));
vi.mock("obsidian", async (importOriginal) => {
  const original = await importOriginal<typeof import("obsidian")>();
  return { ...original, requestUrl: (p: RequestUrlParam) => (transport.requestUrl ? transport.requestUrl(p) : original.requestUrl(p)) };
});

let ollama: ScriptedServer;
let calls: ForwardedCall[] = [];
beforeAll(async () => {
  ollama = await startScriptedServer({ protocol: "ollama", models: [{ name: "nomic-embed-text:latest", capabilities: ["embedding"] }] });
});
afterAll(async () => {
  await ollama.close();
});
afterEach(() => {
  vi.restoreAllMocks();
  ollama.reset();
});

function setUp(): void {
  calls = [];
  transport.requestUrl = nodeRequestUrl(calls);
}

function notes(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) files[`notes/Note ${i}.md`] = `# Note ${i}\n\nPlain words about gardening and compost, marker${i}.\n`;
  return files;
}

const withOllama = (host: string, extra: Record<string, unknown> = {}) => ({ embedding: { provider: "ollama", model: "nomic-embed-text" }, profiles: { ollama: { host } }, ...extra });


const inputsOf = (server: ScriptedServer) => server.embedRequests().map((r) => (r.body as { input: string[] }).input);
const vectorNotices = (harness: Harness) => harness.notices.filter((n) => /vector search|embedding/i.test(n));

describe("vector search in Obsidian", () => {
  it("embeds the vault in the background after the text pass, through requestUrl, with a status line", async () => {
    setUp();
    const harness = await loadPlugin({ files: notes(40), data: withOllama(ollama.url) });
    const texts = statusTexts(harness);
    harness.app.workspace.setLayoutReady__();
    const index = await readyIndex(harness.plugin.index);
    // The index answers once the text pass is done; the embedding has not had a reply yet.
    expect(index?.size).toBe(40);
    expect(index?.vectors?.index.noteCount).toBe(0);
    await harness.plugin.index?.embedded();

    expect(index?.vectors?.index.noteCount).toBe(40);
    // 40 chunks, 32 a request; every request went through requestUrl.
    expect(inputsOf(ollama).map((i) => i.length)).toEqual([32, 8]);
    expect(ollama.embedRequests().every((r) => (r.body as { model: string }).model === "nomic-embed-text")).toBe(true);
    expect(calls.filter((c) => c.param.url.endsWith("/api/embed"))).toHaveLength(2);
    // The text pass's lines come first, then the embedding's, and the line is hidden at the end.
    const firstEmbedding = texts.findIndex((t) => t.startsWith("Embedding"));
    expect(texts[firstEmbedding]).toBe("Embedding 0 / 40 notes");
    expect(texts.slice(firstEmbedding).some((t) => t.startsWith("Indexing"))).toBe(false);
    expect(texts.at(-1)).toBe("");

    // A search embeds the query and fuses the vector hits in.
    const before = ollama.embedRequests().length;
    const hits = await (await harness.plugin.index?.retriever())?.retrieve("marker7", { scope: { kind: "all" }, limit: 3 });
    expect(hits?.[0]?.path).toBe("notes/Note 7.md");
    expect(inputsOf(ollama).slice(before)).toEqual([["marker7"]]);
    expect(vectorNotices(harness)).toEqual([]);
  });

  it("starts warm with its vectors: after a restart nothing is embedded again, and an edited note alone is", async () => {
    setUp();
    const data = withOllama(ollama.url);
    const harness = await loadPlugin({ files: notes(20), data });
    harness.app.workspace.setLayoutReady__();
    await harness.plugin.index?.embedded();
    // What the plugin's unload runs (the mock's unload skips a plugin loaded through onload alone).
    await harness.plugin.index?.dispose();
    const embeddedBefore = inputsOf(ollama).flat().length;
    expect(embeddedBefore).toBe(20);

    const again = await loadPlugin({ app: harness.app, data });
    again.app.workspace.setLayoutReady__();
    const index = await readyIndex(again.plugin.index);
    await again.plugin.index?.embedded();
    expect(index?.vectors?.index.noteCount).toBe(20);
    expect(inputsOf(ollama).flat().length).toBe(embeddedBefore);

    await again.app.vault.modify(again.app.vault.getFileByPath("notes/Note 3.md") as never, "# Note 3\n\nNow about beekeeping.\n");
    await eventually(() => expect(inputsOf(ollama).flat().length).toBe(embeddedBefore + 1));
    await again.plugin.index?.embedded();
    expect(inputsOf(ollama).flat().at(-1)).toBe("# Note 3\n\nNow about beekeeping.");
  });

  it("embeds through an OpenAI-compatible server with the key from Obsidian's secret storage", async () => {
    setUp();
    const openai = await startScriptedServer({ protocol: "openai" });
    try {
      const harness = await loadPlugin({
        files: notes(4),
        data: { embedding: { provider: "openai", model: "text-embedding-3-small" }, profiles: { openai: { preset: "custom", baseUrl: `${openai.url}/v1`, apiKeySecret: "embedding-key" } } },
      });
      harness.app.secretStorage.setSecret("embedding-key", "sk-from-secret-storage");
      harness.app.workspace.setLayoutReady__();
      await harness.plugin.index?.embedded();
      expect((await readyIndex(harness.plugin.index))?.vectors?.index.noteCount).toBe(4);
      const requests = openai.embedRequests();
      expect(requests.length).toBeGreaterThan(0);
      expect(requests.every((r) => r.headers.authorization === "Bearer sk-from-secret-storage")).toBe(true);
      expect(calls.every((c) => c.param.url.startsWith(openai.url))).toBe(true);
      // The key is read from secret storage, never written to the settings.
      expect(JSON.stringify(harness.registered.data__)).not.toContain("sk-from-secret-storage");
    } finally {
      await openai.close();
    }
  });

  it("a dead embedding server: one notice, and search goes on from text and links", async () => {
    setUp();
    const dead = await startScriptedServer({ protocol: "ollama" });
    const url = dead.url;
    await dead.close();
    const harness = await loadPlugin({ files: notes(10), data: withOllama(url) });
    harness.app.workspace.setLayoutReady__();
    await harness.plugin.index?.embedded();
    expect(vectorNotices(harness)).toHaveLength(1);
    expect(vectorNotices(harness)[0]).toMatch(/^Synapse: Vector search is off for now \(.+\); search uses text and links only\.$/);

    const retriever = await harness.plugin.index?.retriever();
    expect((await retriever?.retrieve("marker4", { scope: { kind: "all" }, limit: 1 }))?.[0]?.path).toBe("notes/Note 4.md");
    // Later changes neither try the server again nor repeat the notice (the retries come later: index-embedding-retry.test.ts).
    const tried = calls.length;
    await harness.app.vault.modify(harness.app.vault.getFileByPath("notes/Note 2.md") as never, "# Note 2\n\nBees.\n");
    await eventually(async () => expect((await (await harness.plugin.index?.retriever())?.retrieve("bees", { scope: { kind: "all" }, limit: 1 }))?.[0]?.path).toBe("notes/Note 2.md"));
    await harness.plugin.index?.embedded();
    expect(calls.length).toBe(tried);
    expect(vectorNotices(harness)).toHaveLength(1);
  });

  it("a choice that cannot work is told in one sentence, before any request", async () => {
    setUp();
    const noModel = await loadPlugin({ files: notes(3), data: { embedding: { provider: "ollama", model: "" }, profiles: { ollama: { host: ollama.url } } } });
    noModel.app.workspace.setLayoutReady__();
    expect((await readyIndex(noModel.plugin.index))?.vectors).toBeNull();
    expect(vectorNotices(noModel)).toEqual([
      "Synapse: Vector search with Ollama needs an embedding model (such as nomic-embed-text); set one or choose no embeddings. Search uses text and links only.",
    ]);

    // Local-only mode: the notes' text is never sent to an embedding server off this machine.
    const remote = await loadPlugin({ files: notes(3), data: { localOnly: true, embedding: { provider: "openai", model: "text-embedding-3-small" } } });
    remote.app.secretStorage.setSecret("synapse-openai-api-key", "sk-test");
    remote.app.workspace.setLayoutReady__();
    expect((await readyIndex(remote.plugin.index))?.vectors).toBeNull();
    expect(vectorNotices(remote)).toHaveLength(1);
    expect(vectorNotices(remote)[0]).toMatch(/Local-only mode is on .*Search uses text and links only\.$/);
    expect(calls).toEqual([]);
  });

  it("choosing an embedding model in the settings reopens the index and embeds the vault", async () => {
    setUp();
    const harness = await loadPlugin({ files: notes(5) });
    harness.app.workspace.setLayoutReady__();
    expect((await readyIndex(harness.plugin.index))?.vectors).toBeNull();
    harness.registered.data__ = withOllama(ollama.url);
    await harness.plugin.onExternalSettingsChange();
    await harness.plugin.index?.embedded();
    expect((await readyIndex(harness.plugin.index))?.vectors?.index.noteCount).toBe(5);
    expect(inputsOf(ollama).flat()).toHaveLength(5);
  });
});
