import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { wikiFolderProblem } from "../../src/settings/folder-name";
import { loadSettings } from "../../src/settings/load";
import { safeFileName } from "../../src/wiki/page-paths";

describe("the wiki folder setting", () => {
  it.each([
    ["Wiki.", /ends with a dot/],
    ["Wiki ", null],
    ["notes/Wiki./x", /ends with a dot/],
    ["C:\\Users\\x", /absolute path/],
    ["c:/Users/x", /absolute path/],
    ["\\\\server\\share", /absolute path/],
    ["~/wiki", /absolute path/],
    ["wiki\\sub", /"\\"/],
    ["NUL", /device name/],
    ["con.notes", /device name/],
    ["LPT9/x", /device name/],
    ["ab:c", /":"/],
    ["Wiki?", /"\?"/],
    ["C#", /"#"/],
    [".wiki", /hide it/],
    ["../outside", /outside the vault/],
    ["a/./b", /outside the vault/],
    ["wi\u202Eki", /invisible/],
    [`${"x".repeat(256)}`, /longer than 255 bytes/],
  ])("refuses %j with a message", (folder, message) => {
    const problem = wikiFolderProblem(folder);
    if (message === null) {
      expect(problem).toBeNull(); // trailing white space is trimmed, as the settings tab does
      return;
    }
    expect(problem).toMatch(message);
    expect(problem).toMatch(/^The wiki folder .*\.$/);
  });

  it.each(["", "wiki", "/wiki/", "Knowledge/Wiki", "Wissen", "知識", "Notes & Wiki (2026)"])("accepts %j", (folder) => {
    expect(wikiFolderProblem(folder)).toBeNull();
  });

  it("accepts only names that survive as file names unchanged (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 30 }), (segment) => {
        if (wikiFolderProblem(segment) !== null || segment.includes("/") || segment.trim() === "") return;
        // Whatever the settings accept is a name safeFileName would leave as it is (but for runs of
        // white space, which file names fold to one space).
        const name = segment.trim().normalize("NFC").replace(/\s+/g, " ");
        expect(safeFileName(name)).toBe(name);
      }),
      { numRuns: 3000 },
    );
  });

  it("repairs a stored invalid wiki folder to the default and says why", () => {
    const loaded = loadSettings({ version: 1, wikiFolder: "Wiki.", maxIter: 4 });
    expect(loaded.settings).toMatchObject({ wikiFolder: "wiki", maxIter: 4 });
    expect(loaded.warnings.join(" ")).toMatch(/^"Wiki folder" under Wiki and limits was reset to its default\. The wiki folder "Wiki\." cannot be used on every device/);
    expect(loaded.changed).toBe(true);
  });
});
