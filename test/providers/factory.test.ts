import { describe, expect, it } from "vitest";
import { createProvider } from "../../src/providers/factory";
import { checkReadiness } from "../../src/providers/readiness";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { nodeFetch, testSecrets } from "./harness";

describe("provider factory", () => {
  const env = { settings: DEFAULT_SETTINGS, secrets: testSecrets(), fetch: nodeFetch };

  it("builds the offline provider without a transport", () => {
    expect(createProvider("offline", { settings: DEFAULT_SETTINGS, secrets: testSecrets(null) }).capabilities().name).toBe("offline");
  });

  it("declares each backend truthfully from settings alone", () => {
    expect(createProvider("ollama", { ...env, settings: { ...DEFAULT_SETTINGS, profiles: { ...DEFAULT_SETTINGS.profiles, ollama: { ...DEFAULT_SETTINGS.profiles.ollama, model: "llama3.1:8b" } } } }).capabilities()).toMatchObject({
      name: "ollama",
      mode: "local",
      isLocal: true,
      structuredOutput: "json_schema",
      streaming: true,
      supportsAgenticLoop: false,
      supportsEmbeddings: false,
    });
    expect(createProvider("anthropic", env).capabilities()).toMatchObject({ name: "anthropic", mode: "api", isLocal: false, structuredOutput: "tool_call", supportsTools: true });
    expect(createProvider("openai", env).capabilities()).toMatchObject({ name: "openai", mode: "api", isLocal: false, structuredOutput: "json_schema", model: "gpt-4.1-mini" });
  });

  it("says which setting is missing", () => {
    expect(() => createProvider("anthropic", { ...env, secrets: testSecrets(null) })).toThrow(/No Anthropic API key was found.*synapse-anthropic-api-key.*ANTHROPIC_API_KEY/);
    expect(() => createProvider("ollama", { settings: DEFAULT_SETTINGS, secrets: testSecrets() })).toThrow(/needs an HTTP transport/);
  });

  it("builds the agentic backend, which declares its own loop and is never local", () => {
    expect(createProvider("cli", env).capabilities()).toMatchObject({ name: "claude-agent", mode: "cli", supportsAgenticLoop: true, isLocal: false });
  });

  it("turns configuration errors into a readiness report instead of throwing", async () => {
    const report = await checkReadiness("anthropic", { ...env, secrets: testSecrets(null) });
    expect(report).toMatchObject({ provider: "anthropic", ok: false, reachable: false });
    expect(report.problems[0]).toMatch(/ANTHROPIC_API_KEY/);
    expect((await checkReadiness("offline", env)).ok).toBe(true);
  });
});
