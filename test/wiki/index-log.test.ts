import { describe, expect, it } from "vitest";
import { appendLog, upsertIndex } from "../../src/wiki/index-log";

describe("index.md", () => {
  it("starts with a preamble and groups pages by type, sorted by title", () => {
    const text = upsertIndex("", [
      { path: "wiki/concepts/Zeta.md", type: "concept", title: "Zeta" },
      { path: "wiki/sources/Note.md", type: "source", title: "Note" },
      { path: "wiki/concepts/Alpha.md", type: "concept", title: "Alpha" },
    ]);
    expect(text).toBe(
      "# Wiki index\n\nMaintained by Synapse: one line per page, grouped by type. Text above the first section is yours to edit.\n\n" +
        "## Sources\n\n- [[wiki/sources/Note|Note]]\n\n## Concepts\n\n- [[wiki/concepts/Alpha|Alpha]]\n- [[wiki/concepts/Zeta|Zeta]]\n",
    );
  });

  it("keeps the user's preamble and existing entries, replaces a page's entry instead of repeating it", () => {
    const first = upsertIndex("", [{ path: "wiki/entities/Ada.md", type: "entity", title: "Ada" }]);
    const edited = first.replace("# Wiki index", "# My wiki\n\nWritten by me.");
    const second = upsertIndex(edited, [
      { path: "wiki/entities/Ada.md", type: "entity", title: "Ada" },
      { path: "wiki/entities/Bob.md", type: "entity", title: "Bob" },
    ]);
    expect(second).toContain("# My wiki\n\nWritten by me.");
    expect(second.match(/Ada\]\]/g)).toHaveLength(1);
    expect(second).toContain("- [[wiki/entities/Bob|Bob]]");
  });
});

describe("log.md", () => {
  it("appends one line per ingest", () => {
    const line = { timestamp: "2026-11-29 10:00", sourcePath: "n/Note.md", sourceTitle: "Note", provider: "offline", tokens: 0 };
    const once = appendLog("", { ...line, counts: { created: 2, updated: 0, merged: 0, unchanged: 0 } });
    const twice = appendLog(once, { ...line, tokens: 1500, counts: { created: 0, updated: 1, merged: 1, unchanged: 0 } });
    expect(twice).toBe(
      "# Synapse log\n\nOne line per ingest, newest last.\n\n" +
        "- 2026-11-29 10:00 — [[n/Note|Note]] with offline: 2 created, 0 updated, 0 merged, 0 unchanged\n" +
        "- 2026-11-29 10:00 — [[n/Note|Note]] with offline: 0 created, 1 updated, 1 merged, 0 unchanged (1,500 tokens)\n",
    );
  });
});
