/**
 * The "Embedding model" row means something only while vector search is on: it is hidden with
 * "None", in both ways Obsidian renders the tab, and appears as soon as a backend is chosen.
 */
import { PluginSettingTab } from "obsidian-test-mocks/obsidian";
import { afterEach, describe, expect, it, vi } from "vitest";
import { eventually } from "../helpers/eventually";
import { loadPlugin } from "./plugin-harness";
import { ControlRecorder } from "./settings-controls";

afterEach(() => vi.restoreAllMocks());

async function openTab(embedding: string): Promise<{ tab: PluginSettingTab; controls: ControlRecorder }> {
  const harness = await loadPlugin({ data: { version: 1, embedding: { provider: embedding } } });
  const controls = new ControlRecorder();
  const tab = PluginSettingTab.fromOriginalType2__(harness.registered.settingTabs__[0] as Parameters<typeof PluginSettingTab.fromOriginalType2__>[0]);
  controls.scope(tab.containerEl);
  tab.display();
  return { tab, controls };
}

const EMBEDDING_MODEL = "Backends › Embedding model";

describe("the embedding model row", () => {
  it("is hidden while vector search is off, and shows once a backend does it", async () => {
    const { controls } = await openTab("none");
    expect(controls.rows()).toContain("Backends › Vector search with");
    expect(controls.rows()).not.toContain(EMBEDDING_MODEL);
    controls.dropdown("Backends", "Vector search with").setValue("openai");
    await eventually(() => expect(controls.rows()).toContain(EMBEDDING_MODEL));
    controls.dropdown("Backends", "Vector search with").setValue("none");
    await eventually(() => expect(controls.rows()).not.toContain(EMBEDDING_MODEL));
  });

  it("is hidden in the declarative rendering too (Obsidian 1.13's settings search)", async () => {
    const { tab, controls } = await openTab("none");
    controls.reset();
    tab.update();
    tab.renderTab__();
    expect(controls.rows()).toContain("Backends › Vector search with");
    expect(controls.rows()).not.toContain(EMBEDDING_MODEL);
    vi.restoreAllMocks();
    const on = await openTab("ollama");
    on.controls.reset();
    on.tab.update();
    on.tab.renderTab__();
    expect(on.controls.rows()).toContain(EMBEDDING_MODEL);
  });
});
