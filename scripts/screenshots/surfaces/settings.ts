/** The settings tab with each backend in use for every operation. */
import type { PluginSettingTab } from "obsidian-test-mocks/obsidian";
import { PROVIDER_IDS } from "../../../src/settings/schema";
import { rig } from "../rig";
import type { Surface } from "../surface";

const PROFILES = {
  ollama: { host: "http://127.0.0.1:11434", model: "llama3.2" },
  openai: { preset: "openai", model: "gpt-4o-mini" },
  anthropic: { model: "claude-sonnet-4-5" },
};

export const surfaces: readonly Surface[] = PROVIDER_IDS.map((id) => ({
  name: `settings-${id}`,
  frame: "settings" as const,
  render: async () => {
    const r = await rig({ data: { version: 1, operations: { ingest: id, query: id, lint: id }, profiles: PROFILES } });
    const tab = r.harness.registered.settingTabs__[0] as PluginSettingTab | undefined;
    if (!tab) throw new Error("No settings tab");
    tab.display();
    return { content: tab.containerEl };
  },
}));
