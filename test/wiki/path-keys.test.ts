import { describe, expect, it } from "vitest";
import { nameKey } from "../../src/core/unicode";
import { pathKey } from "../../src/wiki/path-keys";

describe("remembered path keys", () => {
  it("are nameKey's, asked once or again, in any Unicode form or case", () => {
    const paths = ["Notes/Café.md", "notes/Cafe\u0301.md", "WIKI/Straße", "wiki/ÉTÉ/İstanbul.md", ""];
    for (const path of [...paths, ...paths]) expect(pathKey(path)).toBe(nameKey(path));
    expect(pathKey("Notes/Café.md")).toBe(pathKey("notes/Cafe\u0301.md"));
  });
});
