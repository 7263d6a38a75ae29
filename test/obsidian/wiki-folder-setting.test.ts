import { PluginSettingTab } from "obsidian-test-mocks/obsidian";
import { describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually";
import { loadPlugin } from "./plugin-harness";
import { ControlRecorder } from "./settings-controls";

describe("the wiki folder setting in the settings tab", () => {
  it("refuses a folder some platform cannot hold, says why on the row, and keeps the last valid one", async () => {
    const harness = await loadPlugin({ data: { version: 1, wikiFolder: "kb" } });
    const controls = new ControlRecorder();
    const tab = PluginSettingTab.fromOriginalType2__(harness.registered.settingTabs__[0] as Parameters<typeof PluginSettingTab.fromOriginalType2__>[0]);
    tab.display();
    const folder = controls.text("Wiki and limits", "Wiki folder");
    for (const [typed, reason] of [["Wiki.", "ends with a dot"], ["C:\\Users\\x", "absolute path"], ["NUL", "device name"]] as const) {
      folder.setValue(typed);
      await eventually(() => expect(controls.descOf(folder.inputEl).textContent).toContain(reason));
      expect(harness.plugin.currentSettings.wikiFolder).toBe("kb");
    }
    folder.setValue("Knowledge");
    await eventually(() => expect(harness.plugin.currentSettings.wikiFolder).toBe("Knowledge"));
    await eventually(() => expect(controls.descOf(folder.inputEl).textContent).not.toContain("cannot"));
  });

  it("warns when stored settings hold an invalid wiki folder, and uses the default", async () => {
    const harness = await loadPlugin({ data: { version: 1, wikiFolder: "Wiki." } });
    expect(harness.plugin.currentSettings.wikiFolder).toBe("wiki");
    harness.app.workspace.setLayoutReady__();
    expect(harness.notices.some((n) => n.includes("Wiki.") && n.includes("every device"))).toBe(true);
  });
});
