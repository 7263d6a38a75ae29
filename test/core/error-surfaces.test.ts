/** A failure says what to do where it is read: the terminal's advice in the CLI, Obsidian's in the plugin. */
import { describe, expect, it } from "vitest";
import { messageOn, rephrased, summariseError, SynapseError } from "../../src/core/errors";
import { defineCapabilities } from "../../src/core/capabilities";
import { checkCapabilities } from "../../src/providers/call";
import { classifyHttpFailure, connectionError, envelopeError } from "../../src/providers/classify-error";
import { ANTHROPIC_URL_SETTING, OLLAMA_HOST_SETTING, OPENAI_URL_SETTING } from "../../src/providers/server-setting";
import { anthropicKey, ollamaHost } from "../../src/providers/factory";
import { SettingsSchema } from "../../src/settings/schema";

const TERMINAL = /--[a-z]|`synapse |_API_KEY|environment variable/;

function thrown(run: () => unknown): SynapseError {
  try {
    run();
  } catch (error) {
    if (SynapseError.isInstance(error)) return error;
  }
  throw new Error("expected a SynapseError");
}

describe("a failure on each surface", () => {
  it("keeps the terminal's text as the message and gives Obsidian its own", () => {
    const error = classifyHttpFailure({ provider: "Anthropic", model: "claude-nope", status: 404 });
    expect(error.message).toContain("`synapse models`");
    expect(messageOn(error, "cli")).toBe(error.message);
    expect(messageOn(error, "plugin")).not.toMatch(TERMINAL);
    expect(messageOn(error, "plugin")).toContain('"Model"');
  });

  it("names the setting, never a flag or an environment variable, for a missing model, key or bad URL", () => {
    const settings = SettingsSchema.parse({ profiles: { ollama: { host: "http://user:pw@localhost:11434" } } });
    const failures = [
      thrown(() => checkCapabilities(defineCapabilities({ name: "ollama", mode: "local", isLocal: true, model: null }), "ingest", {})),
      thrown(() => anthropicKey({ settings, secrets: { get: () => null } })),
      thrown(() => ollamaHost(settings)),
      classifyHttpFailure({ provider: "OpenAI", model: "gpt-x", status: 401 }),
    ];
    for (const failure of failures) {
      expect(failure.message).toMatch(TERMINAL);
      expect(messageOn(failure, "plugin")).not.toMatch(TERMINAL);
    }
    expect(messageOn(failures[2], "plugin")).toContain('"Host" under Local: Ollama');
  });

  it("names each backend's address setting as its section labels it: Host for Ollama, Base URL for the APIs", () => {
    const ollama = [envelopeError("Ollama", "the body is not JSON", OLLAMA_HOST_SETTING), connectionError("Ollama", "http://127.0.0.1:11434", OLLAMA_HOST_SETTING)];
    for (const failure of ollama) {
      expect(messageOn(failure, "plugin")).toContain('"Host" under Local: Ollama');
      expect(messageOn(failure, "plugin")).not.toMatch(/base URL|--base-url/i);
      expect(messageOn(failure, "cli")).toContain("--base-url");
    }
    expect(messageOn(envelopeError("Anthropic", "no content in the reply", ANTHROPIC_URL_SETTING), "plugin")).toBe(
      'Anthropic sent a reply that is not the expected format (no content in the reply); check that "Base URL" under API: Anthropic points at the right kind of server.',
    );
    expect(messageOn(connectionError("The OpenAI-compatible server", "http://127.0.0.1:1234/v1", OPENAI_URL_SETTING), "plugin")).toBe(
      'Could not reach the OpenAI-compatible server at http://127.0.0.1:1234/v1; check that it is running and that "Base URL" under API: OpenAI-compatible is right.',
    );
  });

  it("survives a report (plain data) and a rewording, each surface keeping its own text", () => {
    const error = new SynapseError("config", "Set it (or pass --model).", { pluginMessage: 'Set "Model".' });
    const summary = summariseError(error);
    expect(JSON.parse(JSON.stringify(summary))).toEqual({ kind: "config", message: "Set it (or pass --model).", pluginMessage: 'Set "Model".' });
    expect(messageOn(summary, "plugin")).toBe('Set "Model".');
    const again = rephrased(summary, (m) => `Re-ingesting a.md failed: ${m}`);
    expect(messageOn(again, "plugin")).toBe('Re-ingesting a.md failed: Set "Model".');
    expect(messageOn(again, "cli")).toBe("Re-ingesting a.md failed: Set it (or pass --model).");
  });

  it("shows the same text on both surfaces when there is nothing surface-specific to say", () => {
    const error = new SynapseError("transport", "Nothing answers.");
    expect(summariseError(error)).toEqual({ kind: "transport", message: "Nothing answers." });
    expect(messageOn(error, "plugin")).toBe("Nothing answers.");
    expect(messageOn(new Error("plain"), "plugin")).toBe("plain");
  });
});
