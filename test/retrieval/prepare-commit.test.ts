/**
 * A note is prepared (`VaultIndex.prepare`: hashed, chunked, links extracted) and then committed;
 * between the two the worker awaits the main thread's word that the note is still current. A note
 * written or removed in that window is left as that edit left it: the commit refuses the older
 * preparation ("stale"), and a change to other notes meanwhile refuses nothing.
 */
import { describe, expect, it } from "vitest";
import { EditLog } from "../../src/retrieval/edit-log";
import { tokenize } from "../../src/core/tokenize";
import type { VaultIndex } from "../../src/retrieval/vault-index";
import { aVault, openIndex, prepareThenCommit } from "./index-builder";

/** A note of a few sections, `salt` in every paragraph. */
function note(salt: string): string {
  const parts = [`# Note ${salt}\n\n`];
  for (let i = 0; i < 400; i++) parts.push(`${salt} words number ${i}.${i % 40 === 0 ? `\n\n## Section ${i}\n\n` : " "}`);
  return parts.join("");
}

/** The notes whose text holds the word (the text index alone: these vaults hold no readable notes). */
function paths(index: VaultIndex, word: string): string[] {
  return [...new Set(index.text.search(tokenize(word), 10, () => true).map((h) => h.path))];
}

const stat = (text: string, mtime = 1) => ({ mtime, size: text.length });

describe("a note prepared, then committed", () => {
  it("is written, and the same text prepared again only records its new time", async () => {
    const index = await openIndex(aVault());
    const text = note("compost");
    expect(await prepareThenCommit(index, "notes/n.md", text, stat(text))).toBe("changed");
    expect(await prepareThenCommit(index, "notes/n.md", text, stat(text, 2))).toBe("unchanged");
    expect(index.stateOf("notes/n.md")?.mtime).toBe(2);
    expect(paths(index, "compost")).toEqual(["notes/n.md"]);
  });

  it("indexes nothing of a note removed between its preparation and its commit", async () => {
    const index = await openIndex(aVault());
    const text = note("removed");
    const outcome = await prepareThenCommit(index, "notes/big.md", text, stat(text), () => {
      index.remove("notes/big.md");
    });
    expect(outcome).toBe("stale");
    expect(index.stateOf("notes/big.md")).toBeUndefined();
    expect(index.text.has("notes/big.md")).toBe(false);
    expect(paths(index, "removed")).toEqual([]);
  });

  it("keeps the newer text of a note written between the preparation and the commit of an older one", async () => {
    const index = await openIndex(aVault());
    const older = note("older");
    const newer = note("newer");
    const outcome = await prepareThenCommit(index, "notes/big.md", older, stat(older), async () => {
      expect(await prepareThenCommit(index, "notes/big.md", newer, stat(newer, 2))).toBe("changed");
    });
    expect(outcome).toBe("stale");
    expect(paths(index, "newer")).toEqual(["notes/big.md"]);
    expect(paths(index, "older")).toEqual([]);
    expect(index.stateOf("notes/big.md")?.mtime).toBe(2);
  });

  it("is committed though other notes changed meanwhile", async () => {
    const index = await openIndex(aVault());
    const text = note("kept");
    const outcome = await prepareThenCommit(index, "notes/big.md", text, stat(text), () => {
      for (let i = 0; i < 3; i++) index.upsert(`notes/other-${i}.md`, `other note ${i}`, stat("x"));
    });
    expect(outcome).toBe("changed");
    expect(paths(index, "kept")).toEqual(["notes/big.md"]);
  });

  it("is refused when older than the edits the log remembers, once their record was cleared", () => {
    const log = new EditLog();
    const stamp = log.stamp();
    for (let i = 0; i < 5000; i++) log.edited(`notes/n${i}.md`);
    expect(log.since("notes/never-edited.md", stamp)).toBe(true);
    expect(log.since("notes/never-edited.md", log.stamp())).toBe(false);
    const later = log.stamp();
    log.edited("notes/a.md");
    expect(log.since("notes/a.md", later)).toBe(true);
    expect(log.since("notes/b.md", later)).toBe(false);
  });
});
