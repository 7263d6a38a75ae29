/** `synapse models` in-process against the scripted servers: listing, the configured model, keys, exit codes. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runModelsCommand } from "../../src/cli/models-command";
import type { ScriptedServer } from "../helpers/scripted-server";
import { API_KEY, startServer } from "./harness";

async function models(argv: string[], env: NodeJS.ProcessEnv = {}, cwd?: string) {
  let stdout = "";
  let stderr = "";
  const code = await runModelsCommand(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env, ...(cwd ? { cwd } : {}) });
  return { code, stdout, stderr };
}

describe("synapse models", () => {
  let ollama: ScriptedServer;
  let anthropic: ScriptedServer;
  let openai: ScriptedServer;
  beforeAll(async () => {
    [ollama, anthropic, openai] = await Promise.all([startServer("ollama"), startServer("anthropic"), startServer("openai")]);
  });
  afterAll(() => Promise.all([ollama.close(), anthropic.close(), openai.close()]));

  it("lists Ollama models with capabilities and marks the configured one", async () => {
    const run = await models(["--provider", "ollama", "--base-url", ollama.url, "--model", "llama3.1:8b"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Ollama 0.12.3 answers at");
    expect(run.stdout).toMatch(/\* llama3\.1:8b\s+completion, tools/);
    expect(run.stdout).toMatch(/ {3}nomic-embed-text:latest\s+embedding/);
    expect(run.stdout).toContain("Ready.");
  });

  it("exits 4 and says what to do when the model is not installed", async () => {
    const run = await models(["--provider", "ollama", "--base-url", ollama.url, "--model", "mistral"]);
    expect(run.code).toBe(4);
    expect(run.stdout).toContain("run `ollama pull mistral`");
    expect(ollama.requests.some((r) => r.path === "/api/pull")).toBe(false);
  });

  it("prints the readiness report as JSON", async () => {
    const run = await models(["--provider", "openai", "--base-url", `${openai.url}/v1`, "--model", "gpt-4o", "--json"]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { provider: string; models: { name: string }[]; modelPresent: boolean };
    expect(report.provider).toBe("openai");
    expect(report.models.map((m) => m.name)).toEqual(["gpt-4.1-mini", "gpt-4o"]);
    expect(report.modelPresent).toBe(true);
  });

  it("reads the Anthropic key from ANTHROPIC_API_KEY and never prints it", async () => {
    const run = await models(["--provider", "anthropic", "--base-url", anthropic.url, "--model", "claude-haiku-4-5"], { ANTHROPIC_API_KEY: API_KEY });
    expect(run.code).toBe(0);
    expect(anthropic.requests.at(-1)?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(run.stdout + run.stderr).not.toContain(API_KEY);
    const keyless = await models(["--provider", "anthropic", "--base-url", anthropic.url], {});
    expect(keyless.code).toBe(4);
    expect(keyless.stdout).toContain("ANTHROPIC_API_KEY");
  });

  it("uses the vault's settings when given --vault", async () => {
    const vault = mkdtempSync(join(tmpdir(), "synapse-models-"));
    try {
      mkdirSync(join(vault, ".obsidian/plugins/synapse"), { recursive: true });
      const data = { version: 1, operations: { ingest: "ollama" }, profiles: { ollama: { host: ollama.url, model: "llama3.1:8b" } } };
      writeFileSync(join(vault, ".obsidian/plugins/synapse/data.json"), JSON.stringify(data));
      const run = await models(["--vault", vault]);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/\* llama3\.1:8b/);
    } finally {
      rmSync(vault, { recursive: true, force: true });
    }
  });

  it("rejects a base URL with credentials and bad usage", async () => {
    const secret = await models(["--provider", "openai", "--base-url", "https://me:hunter2-pass@example.com/v1"], { OPENAI_API_KEY: API_KEY });
    expect(secret.code).toBe(4);
    expect(secret.stdout).toMatch(/user name or password/);
    expect(secret.stdout).not.toContain("hunter2-pass");
    expect((await models([])).code).toBe(2);
    expect((await models(["--provider", "nope"])).code).toBe(2);
  });
});
