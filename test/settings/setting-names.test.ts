/**
 * A problem with a setting names it as the settings tab shows it, in one sentence, whatever zod
 * reported: never the stored field (`profiles.ollama.host`) nor "Invalid input: expected string".
 */
import { describe, expect, it } from "vitest";
import { SettingsSchema } from "../../src/settings/schema";
import { describeSettingIssue, settingName } from "../../src/settings/setting-names";

const problemsOf = (value: unknown) => {
  const parsed = SettingsSchema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map(describeSettingIssue);
};

describe("problems with a setting, in words", () => {
  it("names the row and its section", () => {
    expect(settingName(["profiles", "ollama", "host"])).toBe('"Host" under Local: Ollama');
    expect(settingName(["maxNoteBytes"])).toBe('"Largest note (KB)" under Wiki and limits');
    expect(settingName(["excludedFolders", 2])).toBe('"Excluded folders" under Privacy');
  });

  it("says what the value must be", () => {
    expect(problemsOf({ profiles: { ollama: { host: 42 } } })).toEqual(['"Host" under Local: Ollama must be text.']);
    expect(problemsOf({ maxIter: 0 })).toEqual(['"Generation attempts" under Wiki and limits must be at least 1.']);
    expect(problemsOf({ maxIter: 11 })).toEqual(['"Generation attempts" under Wiki and limits must be at most 10.']);
    expect(problemsOf({ profiles: { cli: { maxBudgetUsd: 0 } } })).toEqual(['"Max budget (USD)" under CLI agent through the bridge must be more than 0.']);
    expect(problemsOf({ reviewMode: "sometimes" })).toEqual(['"Review before writing" under Wiki and limits is not one of its choices.']);
  });

  it("keeps a custom check's own sentence, which names the setting", () => {
    expect(problemsOf({ wikiFolder: "C:\\wiki" })).toEqual(['The wiki folder "C:\\wiki" is an absolute path; give a folder inside the vault, such as "wiki".']);
    expect(problemsOf({ wikiLanguage: "klingon" })).toEqual(['The wiki language must be "auto" or a two-letter ISO 639-1 code such as "en".']);
  });

  it("never shows a stored field's path or zod's wording", () => {
    const all = problemsOf({ wikiFolder: 1, maxIter: "x", profiles: { openai: { contextWindow: -1, preset: "nope" }, anthropic: { baseUrl: false } }, embedding: { provider: 3 }, prices: { m: { input: "free" } } });
    expect(all.length).toBeGreaterThan(5);
    for (const text of all) {
      expect(text).not.toMatch(/Invalid|expected|received|profiles\.|wikiFolder|maxIter|^\w+(\.\w+)*: /);
      expect(text).toMatch(/^[A-Z"].*\.$/);
    }
  });
});
