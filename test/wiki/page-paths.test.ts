import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PAGE_TYPES } from "../../src/core/schemas";
import { normaliseFolder, pagePath, safeFileName } from "../../src/wiki/page-paths";

// eslint-disable-next-line no-control-regex -- control characters are what the names must not hold
const FORBIDDEN = /[<>:"/\\|?*#^[\]\u0000-\u001f]/;
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

describe("safe file names", () => {
  it.each([
    ["../../etc/passwd", "etc passwd"],
    ["a/b\\c", "a b c"],
    ['What? "Quoted" <tags> | pipes * stars', "What Quoted tags pipes stars"],
    ["C#: sharp", "C sharp"],
    ["[[Link]] ^block", "Link block"],
    ["CON", "CON_"],
    ["lpt1.txt", "lpt1.txt_"],
    ["...hidden", "hidden"],
    ["trailing dots...", "trailing dots"],
    ["", "Untitled"],
    ["///", "Untitled"],
    ["東京 タワー", "東京 タワー"],
  ])("%j becomes %j", (title, expected) => {
    expect(safeFileName(title)).toBe(expected);
  });

  it("cuts over-long titles to at most 120 bytes without splitting a character", () => {
    const name = safeFileName("日本語".repeat(100));
    expect(new TextEncoder().encode(name).length).toBeLessThanOrEqual(120);
    expect(name).toMatch(/^(日本語)+日?本?$/u);
  });

  it("is safe on every platform for any title (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), (title) => {
        const name = safeFileName(title);
        expect(name.length).toBeGreaterThan(0);
        expect(name).not.toMatch(FORBIDDEN);
        expect(name).not.toMatch(RESERVED);
        expect(name).not.toMatch(/^[.\s]|[.\s]$/);
        expect(new TextEncoder().encode(name).length).toBeLessThanOrEqual(121);
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps every page inside the wiki folder whatever the title and folder say (property)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.constantFrom(...PAGE_TYPES), fc.string({ maxLength: 200 }), (folder, type, title) => {
        const root = normaliseFolder(folder);
        const path = pagePath(folder, type, title);
        expect(path.split("/")).not.toContain("..");
        expect(path.startsWith("/")).toBe(false);
        if (root) expect(path.startsWith(`${root}/`)).toBe(true);
        expect(path.split("/").length).toBe((root ? root.split("/").length : 0) + 2);
        expect(path.endsWith(".md")).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
