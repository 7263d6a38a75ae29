/**
 * Folder tests normalise paths (NFC, case-folded, forward slashes, no empty, `.` or `..` segments)
 * with a shortcut for plain ASCII paths. Whatever the spelling, the answer must be the one the full
 * normalisation gives.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { inFolders, isExcluded } from "../../src/core/perimeter";
import { normaliseVaultPath } from "../../src/core/sources";
import { nameKey } from "../../src/core/unicode";

/** Pieces that make plain paths and every spelling the shortcut must leave to the full normalisation. */
const PIECES = ["a", "B", "x.md", "Priv", "private", "Privé", "Prive\u0301", "/", "/", "\\", ".", "..", " ", "\t", "\u3000", "\u00a0", "\u2000", "~", "ß"];
const aPath = fc.array(fc.constantFrom(...PIECES), { maxLength: 8 }).map((parts) => parts.join(""));

/** The rule, spelled out: both sides fully normalised, the folder itself or anything under it. */
function reference(path: string, folders: readonly string[]): boolean {
  const key = (text: string) => nameKey(normaliseVaultPath(text));
  const p = key(path);
  return folders.map(key).some((f) => f.length > 0 && (p === f || p.startsWith(`${f}/`)));
}

describe("folder tests", () => {
  it("answer as the full normalisation does, for any spelling of path and folders", () => {
    fc.assert(
      fc.property(aPath, fc.array(aPath, { maxLength: 3 }), (path, folders) => {
        const expected = reference(path, folders);
        expect(inFolders(folders)(path)).toBe(expected);
        expect(isExcluded(path, folders)).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it("take a plain path's folder in any case, and a decomposed or dotted spelling of it", () => {
    const inPrivate = inFolders(["Private/"]);
    expect(inPrivate("private/notes/a.md")).toBe(true);
    expect(inPrivate("./PRIVATE//a.md")).toBe(true);
    expect(inPrivate("other/../private/a.md")).toBe(true);
    expect(inPrivate("privateer/a.md")).toBe(false);
    expect(inFolders(["Privé"])("Prive\u0301/a.md")).toBe(true);
    expect(inFolders([" private "])("private\\a.md")).toBe(true);
  });
});
