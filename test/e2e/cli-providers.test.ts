/**
 * The built CLI (`node dist/cli.mjs`, built by the global setup) against the scripted servers, one
 * per protocol: the real SDKs in a real process, keys from the environment, the documented JSON
 * report and exit codes.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli";
import type { Protocol, ScriptedServer } from "../helpers/scripted-server";
import { makeVault, snapshot } from "../helpers/temp-vault";
import { API_KEY, MODELS, NOTE_PATH, REPLIES, VALID, content, noteText, startServer } from "../providers/harness";

const BASE_URL = (protocol: Protocol, server: ScriptedServer) => (protocol === "openai" ? `${server.url}/v1` : server.url);
const KEYS = { ANTHROPIC_API_KEY: API_KEY, OPENAI_API_KEY: API_KEY };

interface Report {
  converged: boolean;
  attempts: { analyze: number; generate: number };
  pages: { path: string; type: string; title: string; action: string }[];
  usage: { inputTokens: number; outputTokens: number; costUsd: number | null };
  provider: { name: string; mode: string; isLocal: boolean };
  error: { kind: string; message: string } | null;
}

function withSettings(vault: string, settings: Record<string, unknown>): void {
  mkdirSync(join(vault, ".obsidian/plugins/synapse"), { recursive: true });
  writeFileSync(join(vault, ".obsidian/plugins/synapse/data.json"), JSON.stringify({ version: 1, ...settings }));
}

describe.each(["ollama", "anthropic", "openai"] as const)("synapse ingest --provider %s (built CLI)", (protocol) => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startServer(protocol);
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.reset();
    server.setScript(VALID);
  });

  const ingest = (vault: string, extra: string[] = [], env: NodeJS.ProcessEnv = KEYS) =>
    runCli(["ingest", NOTE_PATH, "--vault", vault, "--provider", protocol, "--model", MODELS[protocol], "--base-url", BASE_URL(protocol, server), "--json", ...extra], { env });

  it("ingests a note and prints the documented report with usage and cost", async () => {
    const vault = makeVault({ [NOTE_PATH]: noteText() });
    const run = await ingest(vault);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as Report;
    // Ollama reports the prompt tokens it read (its server counts them); the others, what was scripted.
    const inputTokens = protocol === "ollama" ? server.modelRequests().reduce((sum, r) => sum + (r.promptEvalCount ?? 0), 0) : 240;
    expect(report).toMatchObject({
      converged: true,
      attempts: { analyze: 1, generate: 1 },
      usage: { inputTokens, outputTokens: 120 },
      // On 127.0.0.1 Ollama and an OpenAI-compatible server are truthfully local; Anthropic never is.
      provider: { name: protocol, mode: protocol === "ollama" ? "local" : "api", isLocal: protocol !== "anthropic" },
      error: null,
    });
    if (protocol === "ollama") expect(report.usage.costUsd).toBeNull();
    else expect(report.usage.costUsd).toBeGreaterThan(0);
    expect(report.pages.map((p) => `${p.action} ${p.type} ${p.title}`)).toEqual(["created source Introduction to Bases", "created concept Bases"]);
    const files = snapshot(vault);
    for (const page of report.pages) expect(files[page.path]).toContain(NOTE_PATH);
    const model = server.modelRequests();
    expect(model).toHaveLength(2);
    expect((model[0]!.body as { model: string }).model).toBe(MODELS[protocol]);
    if (protocol !== "ollama") expect(model[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(run.stdout + run.stderr).not.toContain(API_KEY);
  });

  it("exits 3 when no reply ever validates, writing nothing", async () => {
    server.setScript([content(REPLIES.analysis), content(REPLIES.pagesNoSource)]);
    const vault = makeVault({ [NOTE_PATH]: noteText() });
    const run = await ingest(vault, ["--max-iter", "2"]);
    expect(run.code).toBe(3);
    const report = JSON.parse(run.stdout) as Report;
    expect(report).toMatchObject({ converged: false, attempts: { analyze: 1, generate: 2 }, pages: [] });
    expect(Object.keys(snapshot(vault))).toEqual([NOTE_PATH]);
  });

  it("exits 4 with a classified error when the server rejects the request, and retries nothing", async () => {
    server.setScript([{ kind: "status", status: protocol === "ollama" ? 400 : 401, message: `invalid key ${API_KEY}` }]);
    const vault = makeVault({ [NOTE_PATH]: noteText() });
    const run = await ingest(vault);
    expect(run.code).toBe(4);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.error?.kind).toBe("request");
    expect(run.stdout + run.stderr).not.toContain(API_KEY);
    expect(server.modelRequests()).toHaveLength(1);
  });

  it("refuses a note in an excluded folder without a single request", async () => {
    const vault = makeVault({ [`private/${NOTE_PATH}`]: noteText() });
    withSettings(vault, { excludedFolders: ["private"] });
    const run = await runCli(["ingest", `private/${NOTE_PATH}`, "--vault", vault, "--provider", protocol, "--model", MODELS[protocol], "--base-url", BASE_URL(protocol, server), "--json"], { env: KEYS });
    expect(run.code).toBe(4);
    expect((JSON.parse(run.stdout) as Report).error?.kind).toBe("perimeter");
    expect(server.requests).toHaveLength(0);
  });
});

describe("synapse ingest with remote or misconfigured providers (built CLI)", () => {
  it("refuses a remote provider in local-only mode before any network call", async () => {
    const vault = makeVault({ [NOTE_PATH]: noteText() });
    withSettings(vault, { localOnly: true });
    // No network here: had a request been attempted, the error would be transport, not perimeter.
    const run = await runCli(["ingest", NOTE_PATH, "--vault", vault, "--provider", "anthropic", "--model", "claude-haiku-4-5", "--json"], { env: KEYS });
    expect(run.code).toBe(4);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.error?.kind).toBe("perimeter");
    expect(report.provider).toMatchObject({ name: "anthropic", isLocal: false });
  });

  it("exits 4 with a config error when the key is missing", async () => {
    const vault = makeVault({ [NOTE_PATH]: noteText() });
    const run = await runCli(["ingest", NOTE_PATH, "--vault", vault, "--provider", "anthropic", "--json"], { env: {} });
    expect(run.code).toBe(4);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.error).toMatchObject({ kind: "config" });
    expect(report.error?.message).toContain("ANTHROPIC_API_KEY");
  });

  it("rejects a base URL that embeds credentials, without printing them", async () => {
    const vault = makeVault({ [NOTE_PATH]: noteText() });
    const run = await runCli(["ingest", NOTE_PATH, "--vault", vault, "--provider", "openai", "--base-url", "https://me:hunter2-pass@llm.example.com/v1", "--json"], { env: KEYS });
    expect(run.code).toBe(4);
    expect((JSON.parse(run.stdout) as Report).error?.kind).toBe("config");
    expect(run.stdout + run.stderr).not.toContain("hunter2-pass");
  });
});

describe("synapse models (built CLI)", () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startServer("ollama");
  });
  afterAll(() => server.close());

  it("lists the installed models and their capabilities, and says the configured model is there", async () => {
    const run = await runCli(["models", "--provider", "ollama", "--base-url", server.url, "--model", MODELS.ollama, "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { ok: boolean; models: { name: string; capabilities: string[] }[]; modelPresent: boolean };
    expect(report).toMatchObject({ ok: true, modelPresent: true });
    expect(report.models.map((m) => m.name)).toContain("nomic-embed-text:latest");
    expect(server.requests.map((r) => r.path)).not.toContain("/api/pull");
  });

  it("exits 4 and says what to fix when the model is not installed", async () => {
    const run = await runCli(["models", "--provider", "ollama", "--base-url", server.url, "--model", "mistral:7b"]);
    expect(run.code).toBe(4);
    expect(run.stdout + run.stderr).toMatch(/mistral:7b/);
  });
});
