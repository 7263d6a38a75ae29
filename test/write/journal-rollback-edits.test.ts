/**
 * Rolling a run back checks each file at the moment it restores it: a save that lands after the
 * rollback read the file is kept, and the file is named among those left as they are.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { NodeVault } from "../../src/vault/node-vault";
import { contentHash } from "../../src/core/content-hash";
import { rollBackEntries } from "../../src/write/journal";
import type { JournalEntry } from "../../src/write/write-records";
import { hookedFs } from "../helpers/hooked-fs";
import { makeVault } from "../helpers/temp-vault";

describe("a rollback meeting a save", () => {
  const cases: readonly { name: string; entry: JournalEntry; onDisk: string }[] = [
    { name: "a rewritten page", entry: { kind: "write", path: "wiki/A.md", previous: "before the run", nextHash: contentHash("the run's text") }, onDisk: "the run's text" },
    { name: "a created page", entry: { kind: "write", path: "wiki/A.md", previous: null, nextHash: contentHash("the run's text") }, onDisk: "the run's text" },
    { name: "an appended log entry", entry: { kind: "append", path: "wiki/A.md", text: "\n## entry\n", sizeBefore: 4 }, onDisk: "log\n\n## entry\n" },
  ];
  for (const { name, entry, onDisk } of cases) {
    it(`keeps the save and names the file: ${name}`, async () => {
      const root = makeVault({ "wiki/A.md": onDisk });
      let saved = false;
      const fs = hookedFs((b) => {
        // The rollback has read the file; the user saves before it is replaced or removed.
        if (saved || b.op !== "rename" || b.phase !== "before") return;
        saved = true;
        writeFileSync(join(root, "wiki/A.md"), "saved by the user during the rollback");
      });
      const failed = await rollBackEntries(new NodeVault(root, { fs }), new MemoryStateStore(), [entry]);
      expect(saved).toBe(true);
      expect(failed).toEqual(["wiki/A.md"]);
      expect(readFileSync(join(root, "wiki/A.md"), "utf8")).toBe("saved by the user during the rollback");
    });
  }
});
