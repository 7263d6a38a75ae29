/** A backslash in a vault path: a separator as Windows writes one, a character of a name otherwise. */
import { describe, expect, it } from "vitest";
import { canonicalSource, normaliseVaultPath } from "../../src/core/sources";
import { isExcluded } from "../../src/core/perimeter";
import { normaliseNotePath } from "../../src/wiki/read-note";

describe("backslashes in vault paths", () => {
  it("keeps a backslash that is part of a name (legal on Linux and macOS)", () => {
    expect(normaliseVaultPath("notes/back\\slash.md")).toBe("notes/back\\slash.md");
    expect(canonicalSource("[[notes/back\\slash]]")).toBe("notes/back\\slash.md");
    expect(normaliseNotePath("notes/back\\slash.md")).toBe("notes/back\\slash.md");
  });

  it("reads a path written with backslashes alone as Windows spells it", () => {
    expect(normaliseVaultPath("notes\\n.md")).toBe("notes/n.md");
    expect(canonicalSource("[[notes\\n]]")).toBe("notes/n.md");
  });

  it("never lets a backslash hide a step out of a folder", () => {
    expect(normaliseVaultPath("notes/..\\Private/diary.md")).toBe("Private/diary.md");
    expect(isExcluded(canonicalSource("notes/..\\Private/diary.md"), ["Private"])).toBe(true);
    expect(normaliseVaultPath("notes/.\\x.md")).toBe("notes/x.md");
  });
});
