import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PAGE_TYPES } from "../../src/core/schemas";
import { normaliseFolder, pagePath, safeFileName } from "../../src/wiki/page-paths";

// eslint-disable-next-line no-control-regex -- control characters are what the names must not hold
const FORBIDDEN = /[<>:"/\\|?*#^[\]\u0000-\u001f]/;
/** What Windows reads as a device: the part before the first dot, trailing spaces ignored. */
const DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)\s*(\..*)?$/i;
/** Bidirectional controls and invisible format characters (general category Cf). */
const FORMAT = /\p{Cf}/u;

describe("safe file names", () => {
  it.each([
    ["../../etc/passwd", "etc passwd"],
    ["a/b\\c", "a b c"],
    ['What? "Quoted" <tags> | pipes * stars', "What Quoted tags pipes stars"],
    ["C#: sharp", "C sharp"],
    ["[[Link]] ^block", "Link block"],
    ["CON", "CON_"],
    ["lpt1.txt", "lpt1_.txt"],
    ["NUL.pdf", "NUL_.pdf"],
    ["con.txt", "con_.txt"],
    ["LPT9.notes", "LPT9_.notes"],
    ["aux .tar.gz", "aux_ .tar.gz"],
    ["COM¹.log", "COM¹_.log"],
    ["CONOUT$", "CONOUT$_"],
    ["console.txt", "console.txt"],
    ["evil\u202Etxt.exe", "eviltxt.exe"],
    ["a\u2066b\u2069c\u200Bd\uFEFFe\u061Cf\u2060g\u00ADh", "abcdefgh"],
    ["line\nbreak\r\nand\u2028more", "line break and more"],
    ["C\u0080\u009Fx", "C x"],
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
        expect(name).not.toMatch(DEVICE);
        expect(name).not.toMatch(FORMAT);
        expect(name).toBe(name.normalize("NFC"));
        expect(name).not.toMatch(/^[.\s]|[.\s]$/);
        expect(new TextEncoder().encode(name).length).toBeLessThanOrEqual(120);
        expect(safeFileName(name)).toBe(name);
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps a suffix whole however long the title, and stays within the limit (property)", () => {
    const suffix = fc.constantFrom(" (2)", " (99)", " (concept)", " (comparison)", " (0123abcd)");
    const title = fc.oneof(fc.string({ unit: "binary", maxLength: 300 }), fc.string({ unit: "grapheme", minLength: 100, maxLength: 300 }));
    fc.assert(
      fc.property(title, suffix, (t, s) => {
        const name = safeFileName(t, s);
        expect(name.endsWith(s)).toBe(true);
        expect(new TextEncoder().encode(name).length).toBeLessThanOrEqual(120);
        expect(name).not.toMatch(DEVICE);
        expect(name).not.toMatch(/^[.\s]/);
        expect(safeFileName(name)).toBe(name);
      }),
      { numRuns: 1000 },
    );
  });

  it("never names a Windows device, whatever follows the device word (property)", () => {
    const device = fc.constantFrom("con", "PRN", "Aux", "nul", "COM1", "lpt9", "com¹", "CONIN$", "conout$");
    const rest = fc.constantFrom("", ".pdf", ".txt.md", " .notes", "  ", ".", "..x");
    fc.assert(
      fc.property(device, rest, (d, r) => {
        expect(safeFileName(d + r)).not.toMatch(DEVICE);
      }),
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
