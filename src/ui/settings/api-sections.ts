/**
 * The API profiles: Anthropic, and any OpenAI-compatible server (OpenAI, OpenRouter, LM Studio, or
 * a base URL of your own). Keys live in Obsidian's secret storage; these rows keep only the name.
 */
import type { TextComponent } from "obsidian";
import { OPENAI_PRESETS, type Settings } from "../../settings/schema";
import { numberRow, save, textRow, type SettingRow, type SettingSection, type SettingsContext } from "./rows";
import { secretRow } from "./secret-row";
import { testConnectionRow } from "./test-connection";

type Preset = Settings["profiles"]["openai"]["preset"];

export const PRESET_LABELS: Record<Preset, string> = {
  openai: "OpenAI",
  openrouter: "OpenRouter",
  lmstudio: "LM Studio (on this machine)",
  custom: "Another server (base URL below)",
};

/** The preset a base URL belongs to, or "custom". */
export function presetFor(baseUrl: string): Preset {
  const url = baseUrl.trim().replace(/\/+$/, "");
  const found = (Object.keys(OPENAI_PRESETS) as Preset[]).find((p) => p !== "custom" && OPENAI_PRESETS[p] === url);
  return found ?? "custom";
}

export function anthropicSection(ctx: SettingsContext): SettingSection {
  return {
    heading: "API: Anthropic",
    rows: [
      textRow(ctx, "Model", "The Claude model that writes the pages.", (s) => s.profiles.anthropic.model, (d, v) => (d.profiles.anthropic.model = v), "claude-sonnet-4-6"),
      secretRow(
        ctx,
        "API key",
        "The secret in Obsidian's keychain that holds your Anthropic API key.",
        (s) => s.profiles.anthropic.apiKeySecret,
        (d, v) => (d.profiles.anthropic.apiKeySecret = v),
      ),
      textRow(
        ctx,
        "Base URL",
        "Empty for Anthropic's own API, or the address of a proxy or gateway.",
        (s) => s.profiles.anthropic.baseUrl,
        (d, v) => (d.profiles.anthropic.baseUrl = v),
        "https://api.anthropic.com",
      ),
      numberRow(
        ctx,
        "Max output tokens",
        "The most tokens one reply may have; a reply cut off at it is retried with twice as many.",
        { min: 1, integer: true },
        (s) => s.profiles.anthropic.maxTokens,
        (d, v) => (d.profiles.anthropic.maxTokens = v),
      ),
      testConnectionRow(ctx, "anthropic"),
    ],
  };
}

export function openaiSection(ctx: SettingsContext): SettingSection {
  let baseUrlText: TextComponent | null = null;

  const presetRow: SettingRow = {
    name: "Service",
    desc: "Fills in the base URL for a known service.",
    build: (setting) => {
      setting.addDropdown((dropdown) =>
        dropdown
          .addOptions(PRESET_LABELS)
          .setValue(ctx.store.settings.profiles.openai.preset)
          .onChange(async (value) => {
            const preset = value as Preset;
            const result = await save(setting, ctx.store, (draft) => {
              draft.profiles.openai.preset = preset;
              if (preset !== "custom") draft.profiles.openai.baseUrl = OPENAI_PRESETS[preset];
            });
            // Show the new URL without re-rendering the tab; setting the input alone fires no change.
            if (result.ok && baseUrlText) baseUrlText.inputEl.value = ctx.store.settings.profiles.openai.baseUrl;
          }),
      );
    },
  };

  const baseUrlRow: SettingRow = {
    name: "Base URL",
    desc: "The server's OpenAI-compatible endpoint, ending in /v1 for most servers.",
    build: (setting) => {
      setting.addText((text) => {
        baseUrlText = text;
        text
          .setPlaceholder(OPENAI_PRESETS.openai)
          .setValue(ctx.store.settings.profiles.openai.baseUrl)
          .onChange(
            (value) =>
              void save(setting, ctx.store, (draft) => {
                draft.profiles.openai.baseUrl = value.trim();
                draft.profiles.openai.preset = presetFor(value);
              }),
          );
      });
    },
  };

  return {
    heading: "API: OpenAI-compatible",
    rows: [
      presetRow,
      baseUrlRow,
      textRow(ctx, "Model", "The model name as the server knows it.", (s) => s.profiles.openai.model, (d, v) => (d.profiles.openai.model = v), "gpt-4.1-mini"),
      secretRow(
        ctx,
        "API key",
        "The secret in Obsidian's keychain that holds this server's key; local servers need none.",
        (s) => s.profiles.openai.apiKeySecret,
        (d, v) => (d.profiles.openai.apiKeySecret = v),
      ),
      numberRow(
        ctx,
        "Max output tokens",
        "The most tokens one reply may have; a reply cut off at it is retried with twice as many.",
        { min: 1, integer: true },
        (s) => s.profiles.openai.maxTokens,
        (d, v) => (d.profiles.openai.maxTokens = v),
      ),
      numberRow(
        ctx,
        "Context window (tokens)",
        "The most tokens one request may use on a local server, prompt and reply together; 0 uses the window the server reports.",
        { min: 0, integer: true },
        (s) => s.profiles.openai.contextWindow,
        (d, v) => (d.profiles.openai.contextWindow = v),
      ),
      testConnectionRow(ctx, "openai"),
    ],
  };
}
