import { describe, expect, it } from "vitest";
import { loadSettings } from "../../src/settings/load";
import { DEFAULT_SETTINGS, SETTINGS_VERSION } from "../../src/settings/schema";

describe("loading settings", () => {
  it("gives the defaults for a vault without settings", () => {
    expect(loadSettings(undefined)).toEqual({ settings: DEFAULT_SETTINGS, warnings: [], changed: false });
  });

  it("keeps valid values and resets only the invalid ones, saying which", () => {
    const loaded = loadSettings({ version: 1, wikiFolder: "Knowledge", maxIter: "many", localOnly: true, profiles: { ollama: { host: 42, model: "llama3.2" } } });
    expect(loaded.settings).toMatchObject({ wikiFolder: "Knowledge", maxIter: DEFAULT_SETTINGS.maxIter, localOnly: true });
    expect(loaded.settings.profiles.ollama).toMatchObject({ host: DEFAULT_SETTINGS.profiles.ollama.host, model: "llama3.2" });
    // Each warning names the setting as the tab shows it, in a plain sentence: no stored field, no zod wording.
    expect([...loaded.warnings].sort()).toEqual([
      '"Generation attempts" under Wiki and limits was reset to its default. Its saved value was not a number.',
      '"Host" under Local: Ollama was reset to its default. Its saved value was not text.',
    ]);
    expect(loaded.warnings.join(" ")).not.toMatch(/maxIter|profiles\.|Invalid input|expected/);
    expect(loaded.changed).toBe(true);
  });

  it("drops only the invalid entries of a list, keeping every valid one", () => {
    const loaded = loadSettings({ version: 1, excludedFolders: ["Private", 1, 2, "Journal", null] });
    expect(loaded.settings.excludedFolders).toEqual(["Private", "Journal"]);
  });

  it("migrates the unversioned shape", () => {
    const loaded = loadSettings({ provider: "ollama", maxIterations: 5 });
    expect(loaded.settings.version).toBe(SETTINGS_VERSION);
    expect(loaded.settings.maxIter).toBe(5);
    expect(loaded.settings.operations).toEqual({ ingest: "ollama", query: "ollama", lint: "ollama" });
    expect(loaded.changed).toBe(true);
  });

  it("does not overwrite settings written by a newer version", () => {
    const loaded = loadSettings({ version: SETTINGS_VERSION + 1, wikiFolder: "x" });
    expect(loaded.settings).toEqual(DEFAULT_SETTINGS);
    expect(loaded.changed).toBe(false);
    expect(loaded.warnings[0]).toMatch(/newer/);
  });

  it("survives garbage", () => {
    for (const garbage of ["text", 42, [1, 2], { operations: "x", profiles: [] }]) {
      expect(() => loadSettings(garbage)).not.toThrow();
    }
  });
});
