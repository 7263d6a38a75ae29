/**
 * Vector search from the terminal (built CLI) against a scripted Ollama server: chunks are embedded
 * in batches, an unchanged chunk is never embedded again — even after every file's modification
 * time changed, nor after a search with another model — and a dead server costs one warning while
 * search goes on from text and links.
 */
import { mkdirSync, readdirSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli";
import { startScriptedServer, type ScriptedServer } from "../helpers/scripted-server";
import { makeVault } from "../helpers/temp-vault";

const NOTES: Record<string, string> = {};
for (let i = 0; i < 40; i++) NOTES[`notes/n${i}.md`] = `# Note ${i}\n\nPlain words number ${i} on topic ${i % 4}.\n\n## More\n\nSecond part ${i}.`;
NOTES["private/secret.md"] = "# Secret\n\nNever to be embedded.";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer({ protocol: "ollama", models: [{ name: "nomic-embed-text:latest", capabilities: ["embedding"] }, { name: "all-minilm:latest", capabilities: ["embedding"] }, { name: "mxbai-embed-large:latest", capabilities: ["embedding"] }] });
});
afterAll(() => server.close());

function vault(): string {
  const root = makeVault(NOTES);
  mkdirSync(join(root, ".obsidian/plugins/synapse"), { recursive: true });
  writeFileSync(join(root, ".obsidian/plugins/synapse/data.json"), JSON.stringify({ excludedFolders: ["private"] }));
  return root;
}

const flags = () => ["--embed-provider", "ollama", "--embed-model", "nomic-embed-text", "--base-url", server.url];

describe("synapse index and search with embeddings (built CLI)", () => {
  it("embeds each chunk once, in batches, and not again after every file was touched", async () => {
    const root = vault();
    server.reset();
    const first = await runCli(["index", "--vault", root, "--json", ...flags()]);
    expect(first.code).toBe(0);
    const report = JSON.parse(first.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({ notes: 40, chunks: 80, vectorNotes: 40, embedded: 80, vectorError: null });
    expect(server.embedRequests()).toHaveLength(3); // 32 + 32 + 16
    expect(server.embedRequests().flatMap((r) => (r.body as { input: string[] }).input).some((t) => t.includes("Never to be embedded"))).toBe(false);

    const later = new Date(Date.now() + 60_000);
    for (const path of Object.keys(NOTES)) utimesSync(join(root, path), later, later);
    const second = JSON.parse((await runCli(["index", "--vault", root, "--json", ...flags()])).stdout) as Record<string, unknown>;
    expect(second).toMatchObject({ notes: 40, indexed: 0, vectorNotes: 40, embedded: 0 });
    expect(server.embedRequests()).toHaveLength(3);

    const search = await runCli(["search", "topic", "--vault", root, "--json", ...flags()]);
    expect(search.code).toBe(0);
    expect((JSON.parse(search.stdout) as { results: unknown[] }).results.length).toBeGreaterThan(0);
    expect(server.embedRequests()).toHaveLength(4); // the query only
    expect((server.embedRequests()[3]?.body as { input: string[] }).input).toEqual(["topic"]);

    // A damaged vector shard is reported apart from the text shards, and its notes embedded again.
    const folder = join(root, ".obsidian/plugins/synapse/state/index/vectors");
    const model = readdirSync(folder).find((name) => name.includes("nomic-embed-text")) ?? "";
    const shard = join(folder, model, readdirSync(join(folder, model)).filter((name) => name.endsWith(".bin"))[0] ?? "");
    truncateSync(shard, 20);
    const third = await runCli(["index", "--vault", root, "--json", ...flags()]);
    expect(JSON.parse(third.stdout)).toMatchObject({ rebuiltShards: 0, rebuiltVectorShards: 1, vectorNotes: 40 });
    expect(third.stderr).toMatch(/1 vector shard was damaged/);
  });

  it("a search with another model keeps the configured model's vectors: indexing again embeds nothing", async () => {
    const root = vault();
    server.reset();
    expect(JSON.parse((await runCli(["index", "--vault", root, "--json", ...flags()])).stdout)).toMatchObject({ vectorNotes: 40, embedded: 80 });
    const other = await runCli(["search", "topic", "--vault", root, "--json", "--embed-provider", "ollama", "--embed-model", "all-minilm", "--base-url", server.url]);
    expect(other.code).toBe(0);
    expect(other.stderr).not.toMatch(/Warning/);
    const byModel = (model: string) => server.embedRequests().filter((r) => (r.body as { model: string }).model === model);
    expect(byModel("all-minilm").flatMap((r) => (r.body as { input: string[] }).input)).toHaveLength(81); // its own 80 chunks, then the query
    const again = JSON.parse((await runCli(["index", "--vault", root, "--json", ...flags()])).stdout) as Record<string, unknown>;
    expect(again).toMatchObject({ vectorNotes: 40, embedded: 0 });
    expect(byModel("nomic-embed-text").flatMap((r) => (r.body as { input: string[] }).input)).toHaveLength(80);
  });

  it("two models tried in a row keep the vectors of the model the vault's settings choose", async () => {
    const root = makeVault(NOTES);
    mkdirSync(join(root, ".obsidian/plugins/synapse"), { recursive: true });
    const settings = { excludedFolders: ["private"], embedding: { provider: "ollama", model: "nomic-embed-text" }, profiles: { ollama: { host: server.url } } };
    writeFileSync(join(root, ".obsidian/plugins/synapse/data.json"), JSON.stringify(settings));
    server.reset();
    const inputsOf = (model: string) => server.embedRequests().filter((r) => (r.body as { model: string }).model === model).flatMap((r) => (r.body as { input: string[] }).input);
    expect(JSON.parse((await runCli(["index", "--vault", root, "--json"])).stdout)).toMatchObject({ vectorNotes: 40, embedded: 80 });
    for (const model of ["all-minilm", "mxbai-embed-large"]) {
      const tried = await runCli(["search", "topic", "--vault", root, "--json", "--embed-model", model]);
      expect(tried.code).toBe(0);
      expect(tried.stderr).not.toMatch(/Warning/);
      expect(inputsOf(model)).toHaveLength(81); // its own 80 chunks, then the query
    }
    const again = JSON.parse((await runCli(["index", "--vault", root, "--json"])).stdout) as Record<string, unknown>;
    expect(again).toMatchObject({ vectorNotes: 40, embedded: 0 });
    expect(inputsOf("nomic-embed-text")).toHaveLength(80);
  });

  it("a dead embedding server costs one warning; search answers from text", async () => {
    const root = vault();
    const dead = await startScriptedServer({ protocol: "ollama" });
    const url = dead.url;
    await dead.close();
    const run = await runCli(["search", "plain words", "--vault", root, "--json", "--embed-provider", "ollama", "--embed-model", "nomic-embed-text", "--base-url", url]);
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { results: unknown[] }).results.length).toBeGreaterThan(0);
    const warnings = run.stderr.split("\n").filter((l) => l.startsWith("Warning:"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/Vector search is off for now \(Could not reach Ollama.*\); search uses text and links only\./);
  });

  it("local-only mode refuses a remote embedding server from the settings: one warning, text search", async () => {
    const root = makeVault(NOTES);
    mkdirSync(join(root, ".obsidian/plugins/synapse"), { recursive: true });
    const settings = {
      excludedFolders: ["private"],
      localOnly: true,
      embedding: { provider: "openai", model: "text-embedding-3-small" },
      profiles: { openai: { preset: "custom", baseUrl: "https://api.openai.com/v1" } },
    };
    writeFileSync(join(root, ".obsidian/plugins/synapse/data.json"), JSON.stringify(settings));
    const run = await runCli(["search", "plain words", "--vault", root, "--json"], { env: { OPENAI_API_KEY: "sk-test" } });
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { results: unknown[] }).results.length).toBeGreaterThan(0);
    const warnings = run.stderr.split("\n").filter((l) => l.startsWith("Warning:"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^Warning: Local-only mode is on .* Search uses text and links only\.$/);
  });

  it("refuses unknown or incomplete embedding flags with a usage error", async () => {
    const root = vault();
    const unknown = await runCli(["index", "--vault", root, "--embed-provider", "cohere"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown embedding provider "cohere"; use one of none, ollama, openai\./);
    const noModel = await runCli(["index", "--vault", root, "--embed-provider", "openai"]);
    expect(noModel.code).toBe(2);
    expect(noModel.stderr).toMatch(/needs an embedding model/);
    const stray = await runCli(["search", "x", "--vault", root, "--embed-model", "m"]);
    expect(stray.code).toBe(2);
  });
});
