import { afterEach, describe, expect, it, vi } from "vitest";
import { loadPlugin } from "./plugin-harness";

afterEach(() => vi.restoreAllMocks());

describe("loading the plugin", () => {
  it("registers its commands without the plugin id or the word command, and without hotkeys", async () => {
    const { registered } = await loadPlugin();
    expect([...registered.commands__.keys()].sort()).toEqual(["ask-the-wiki", "cancel-ingest", "check-wiki-health", "collect-batch-results", "ingest-active-note", "ingest-folder", "reingest-active-note", "retract-deleted-source", "retry-failed-ingests", "review-proposals", "show-batch-status", "show-failed-ingests", "undo-last-change"]);
    for (const command of registered.commands__.values()) {
      expect(command.id).not.toMatch(/synapse|command/i);
      expect(command.name).not.toMatch(/synapse|command/i);
      expect(command.hotkeys ?? []).toEqual([]);
    }
    expect(registered.commands__.get("ingest-active-note")?.name).toBe("Ingest active note");
    expect(registered.commands__.get("ingest-folder")?.name).toBe("Ingest notes in folder…");
    expect(registered.commands__.get("cancel-ingest")?.name).toBe("Cancel running ingest");
  });

  it("adds one ribbon button, three status-bar items (ingest, indexing, batches; hidden while idle) and one settings tab", async () => {
    const { registered } = await loadPlugin();
    expect(registered.ribbonActions__).toHaveLength(2);
    expect(registered.statusBarItems__).toHaveLength(3);
    for (const status of registered.statusBarItems__) {
      expect(status.textContent).toBe("");
      expect(status.hasClass("synapse-status-idle")).toBe(true);
    }
    expect(registered.settingTabs__).toHaveLength(1);
  });

  it("offers 'Ingest active note' only while a Markdown note is active", async () => {
    const harness = await loadPlugin({ files: { "notes/a.md": "# A", "files/b.pdf": "%PDF" } });
    const check = harness.registered.commands__.get("ingest-active-note")?.checkCallback;
    harness.activate(null);
    expect(check?.(true)).toBe(false);
    harness.activate("files/b.pdf");
    expect(check?.(true)).toBe(false);
    harness.activate("notes/a.md");
    expect(check?.(true)).toBe(true);
  });

  it("offers 'Cancel running ingest' only while an ingest runs", async () => {
    const { registered } = await loadPlugin();
    expect(registered.commands__.get("cancel-ingest")?.checkCallback?.(true)).toBe(false);
  });

  it("leaves data.json alone when it is already valid, and repairs a hand-edited one with a notice", async () => {
    const clean = await loadPlugin({ data: { version: 1, wikiFolder: "kb" } });
    expect(clean.plugin.currentSettings.wikiFolder).toBe("kb");

    const broken = await loadPlugin({ data: { version: 1, wikiFolder: 42, maxIter: "lots", localOnly: true } });
    expect(broken.plugin.currentSettings.wikiFolder).toBe("wiki");
    expect(broken.plugin.currentSettings.maxIter).toBe(3);
    expect(broken.plugin.currentSettings.localOnly).toBe(true);
    expect(broken.registered.data__).toMatchObject({ wikiFolder: "wiki", maxIter: 3, localOnly: true, version: 1 });
    broken.app.workspace.setLayoutReady__();
    expect(broken.notices.some((n) => n.includes("\"Wiki folder\" under Wiki and limits") && n.includes("\"Generation attempts\" under Wiki and limits"))).toBe(true);
  });

  it("migrates an unversioned data.json", async () => {
    const { plugin, registered } = await loadPlugin({ data: { provider: "ollama", maxIterations: 5 } });
    expect(plugin.currentSettings.operations).toEqual({ ingest: "ollama", query: "ollama", lint: "ollama" });
    expect(plugin.currentSettings.maxIter).toBe(5);
    expect(registered.data__).toMatchObject({ version: 1, maxIter: 5 });
  });

  it("does not save over settings written by a newer version", async () => {
    const newer = { version: 99, wikiFolder: "future" };
    const { registered } = await loadPlugin({ data: newer });
    expect(registered.data__).toEqual(newer);
  });
});
