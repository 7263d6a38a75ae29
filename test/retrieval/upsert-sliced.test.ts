/**
 * A large note is indexed in pieces (`VaultIndex.prepare` counts its terms with a checkpoint
 * between pieces) and written in one step (`commit`): the index it gives is the one `upsert` gives,
 * and a note written or removed between preparation and commit is left as that edit left it. Pieces
 * are counted through the checkpoint, never timed.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseNote } from "../../src/retrieval/chunker";
import { writeNoteTerms } from "../../src/retrieval/note-terms";
import { countNoteTerms, EditLog } from "../../src/retrieval/prepared-note";
import { parseLinks, type LinkExtractor } from "../../src/retrieval/links";
import { syncIndex } from "../../src/retrieval/sync";
import { TextIndex } from "../../src/retrieval/text-index";
import { runPieces, runPiecesSliced } from "../../src/core/time-slice";
import { tokenize } from "../../src/core/tokenize";
import { ONE_STEP_CHARS } from "../../src/retrieval/note-preparation";
import { HASH_PIECE_CHARS } from "../../src/core/content-hash";
import { VaultIndex } from "../../src/retrieval/vault-index";
import { readFrontmatter } from "../../src/retrieval/chunker";
import { MemoryVault } from "../../src/vault/memory-vault";
import { aVault, openIndex, upsertSliced } from "./index-builder";

const WORDS = ["alpha", "beta", "gamma", "delta", "garden", "compost", "river", "mountain", "quantum", "lattice", "Café", "東京都庁", "喫茶店", "ガラス"];

/** A long note of sections and paragraphs, its words numbered so that most are distinct. */
function largeNote(chars: number, salt: string): string {
  const parts = [`# Large ${salt}\n\n`];
  let length = 0;
  for (let i = 0; length < chars; i++) {
    let part = `${WORDS[i % WORDS.length] ?? ""}${i % 997} ${WORDS[(i * 7) % WORDS.length] ?? ""} ${salt} words ${i}. `;
    if (i % 40 === 0) part += "\n\n";
    if (i % 2000 === 0) part += `\n## Section ${i}\n\n`;
    parts.push(part);
    length += part.length;
  }
  return parts.join("");
}

/** The notes whose text holds the word (the text index alone: these vaults hold no readable notes). */
function paths(index: VaultIndex, word: string): string[] {
  return [...new Set(index.text.search(tokenize(word), 10, () => true).map((h) => h.path))];
}

const stat = (text: string, mtime = 1) => ({ mtime, size: text.length });

describe("a note prepared in pieces", () => {
  it("counts a large note's terms in pieces, with a checkpoint between them; a small note needs none", async () => {
    const index = await openIndex(aVault());
    const big = largeNote(512 * 1024, "big");
    let checkpoints = 0;
    const counting = () => {
      checkpoints += 1;
      return Promise.resolve();
    };
    expect(await upsertSliced(index, "notes/big.md", big, stat(big), counting)).toBe("changed");
    // 16 KB of text a piece: about 32 pieces for 512 KB.
    expect(checkpoints).toBeGreaterThanOrEqual(25);
    expect(paths(index, "big")).toEqual(["notes/big.md"]);

    checkpoints = 0;
    const small = "# Small\n\nA short note about compost.\n";
    expect(await upsertSliced(index, "notes/small.md", small, stat(small), counting)).toBe("changed");
    expect(checkpoints).toBe(0);
    expect(await upsertSliced(index, "notes/small.md", small, stat(small, 2), counting)).toBe("unchanged");
    expect(index.stateOf("notes/small.md")?.mtime).toBe(2);
  });

  it("indexes exactly what upsert indexes", async () => {
    const big = largeNote(3 * ONE_STEP_CHARS, "same");
    const a = await openIndex(aVault());
    const b = await openIndex(aVault());
    a.upsert("notes/big.md", big, stat(big));
    expect(await upsertSliced(b, "notes/big.md", big, stat(big), () => Promise.resolve())).toBe("changed");
    expect(b.text.chunksOf("notes/big.md")).toEqual(a.text.chunksOf("notes/big.md"));
    expect(b.stateOf("notes/big.md")).toEqual(a.stateOf("notes/big.md"));
    for (const query of ["alpha12", "same words", "café", "喫茶店", "ガラス", "section 2000", "lattice quantum"]) {
      expect(b.text.search(query.split(" "), 20, () => true), query).toEqual(a.text.search(query.split(" "), 20, () => true));
    }
  });

  it("writes counted terms as the words they were counted from, whatever the note", () => {
    const word = fc.constantFrom(...WORDS, "a", "the", "don't", "Ёлка", "ดี", "[[Link|label]]", "`code`");
    const line = fc.array(word, { maxLength: 12 }).map((w) => w.join(" "));
    const block = fc.oneof(line, line.map((l) => `## ${l}`), fc.constant(""), fc.constant("---\ntitle: T\naliases: [Other name]\n---"));
    fc.assert(
      fc.property(fc.array(block, { maxLength: 30 }).map((b) => b.join("\n")), (markdown) => {
        const parsed = parseNote("notes/n.md", markdown);
        const direct = new TextIndex();
        const counted = new TextIndex();
        direct.write("notes/n.md", (writer) => writeNoteTerms(markdown, parsed, writer));
        const note = runPieces(countNoteTerms(markdown, parsed, counted.terms));
        counted.write("notes/n.md", (writer) => note.write(writer));
        expect(counted.chunksOf("notes/n.md")).toEqual(direct.chunksOf("notes/n.md"));
        for (const term of ["alpha", "the", "東京都庁", "ดี", "label", "link", "code", "t", "other", "ёлка"]) {
          expect(counted.search([term], 5, () => true)).toEqual(direct.search([term], 5, () => true));
        }
      }),
      { numRuns: 200 },
    );
  });

  it("indexes nothing of a note removed while it was prepared", async () => {
    const index = await openIndex(aVault());
    const big = largeNote(2 * ONE_STEP_CHARS, "removed");
    let removed = false;
    const outcome = await upsertSliced(index, "notes/big.md", big, stat(big), () => {
      if (!removed) removed = index.remove("notes/big.md") || true;
      return Promise.resolve();
    });
    expect(outcome).toBe("stale");
    expect(index.stateOf("notes/big.md")).toBeUndefined();
    expect(index.text.has("notes/big.md")).toBe(false);
    expect(paths(index, "removed")).toEqual([]);
  });

  it("keeps the newer text of a note written while an older text of it was prepared", async () => {
    const index = await openIndex(aVault());
    const older = largeNote(2 * ONE_STEP_CHARS, "older");
    const newer = largeNote(2 * ONE_STEP_CHARS, "newer");
    let wrote = false;
    const outcome = await upsertSliced(index, "notes/big.md", older, stat(older), async () => {
      if (wrote) return;
      wrote = true;
      // The newer text, itself in pieces, starts and finishes inside the older one's preparation.
      expect(await upsertSliced(index, "notes/big.md", newer, stat(newer, 2), () => Promise.resolve())).toBe("changed");
    });
    expect(outcome).toBe("stale");
    expect(paths(index, "newer")).toEqual(["notes/big.md"]);
    expect(paths(index, "older")).toEqual([]);
    expect(index.stateOf("notes/big.md")?.mtime).toBe(2);
  });

  it("commits a note whose neighbours changed meanwhile", async () => {
    const index = await openIndex(aVault());
    const big = largeNote(2 * ONE_STEP_CHARS, "kept");
    let other = 0;
    const outcome = await upsertSliced(index, "notes/big.md", big, stat(big), () => {
      other += 1;
      index.upsert(`notes/other-${other}.md`, `other note ${other}`, stat("x"));
      return Promise.resolve();
    });
    expect(outcome).toBe("changed");
    expect(paths(index, "kept")).toEqual(["notes/big.md"]);
  });

  it("refuses a preparation older than the edits it remembers, once their record was cleared", () => {
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

  it("is how a sync indexes a large note: in pieces, yielding between them", async () => {
    const big = largeNote(512 * 1024, "synced");
    const vault = new MemoryVault({ "notes/big.md": big });
    const index = await openIndex(aVault());
    let clock = 0;
    let yields = 0;
    // Every step "takes" 20 ms on this clock, so each checkpoint past the first of a slice yields.
    const result = await syncIndex(index, vault, {
      now: () => (clock += 10),
      yieldNow: () => {
        yields += 1;
        return Promise.resolve();
      },
      flush: false,
    });
    expect(result.indexed).toBe(1);
    expect(yields).toBeGreaterThanOrEqual(10);
    expect(paths(index, "synced")).toEqual(["notes/big.md"]);
    // The same note once more, unchanged: hashed in pieces, nothing counted.
    yields = 0;
    const again = await runPiecesSliced(index.prepare("notes/big.md", big, stat(big, 9)), () => Promise.resolve());
    expect(again.change).toMatchObject({ kind: "same" });
  });

  it("indexes a large note of new words exactly as upsert does, its terms numbered before the commit", async () => {
    const big = largeNote(3 * HASH_PIECE_CHARS, "fresh");
    const a = await openIndex(aVault());
    const b = await openIndex(aVault());
    a.upsert("notes/big.md", big, stat(big));
    const prepared = await runPiecesSliced(b.prepare("notes/big.md", big, stat(big)), () => Promise.resolve());
    // Every term is numbered while counting: the commit looks none up.
    const numbered = b.text.terms.size;
    expect(b.commit(prepared)).toBe("changed");
    expect(b.text.terms.size).toBe(numbered);
    expect(b.text.chunksOf("notes/big.md")).toEqual(a.text.chunksOf("notes/big.md"));
    for (const query of ["alpha12", "fresh words", "words 40000", "café", "喫茶店", "section 4000", "lattice quantum"]) {
      expect(b.text.search(query.split(" "), 20, () => true), query).toEqual(a.text.search(query.split(" "), 20, () => true));
    }
  });

  it("hashes a large note in pieces before counting it, its links extracted at once", async () => {
    const big = largeNote(3 * HASH_PIECE_CHARS, "hashed");
    let extracted = 0;
    const { store, reader } = aVault();
    const links: LinkExtractor = (path, markdown, parsed) => {
      extracted += 1;
      return parseLinks(path, markdown, parsed);
    };
    const index = await VaultIndex.open({ frontmatter: readFrontmatter, store, reader, wikiFolder: "wiki", excludedFolders: [], links });
    await upsertSliced(index, "notes/big.md", big, stat(big), () => Promise.resolve());
    // The same text again: hashed in pieces (one checkpoint after the links, then one between each
    // two pieces of the hash), found unchanged, nothing counted.
    const preparing = index.prepare("notes/big.md", big, stat(big, 2));
    expect(extracted).toBe(2);
    let checkpoints = 0;
    const again = await runPiecesSliced(preparing, () => Promise.resolve(checkpoints++));
    expect(again.change).toMatchObject({ kind: "same" });
    expect(checkpoints).toBe(Math.ceil(big.trim().length / HASH_PIECE_CHARS));
  });

  it("leaves a merge that a large note asks for to the caller's pieces, where upsert merges at once", async () => {
    const big = largeNote(HASH_PIECE_CHARS, "merged");
    const a = await openIndex(aVault());
    const b = await openIndex(aVault());
    a.upsert("notes/big.md", big, stat(big));
    expect(a.mergeWanted).toBe(false);
    await upsertSliced(b, "notes/big.md", big, stat(big), () => Promise.resolve());
    expect(b.mergeWanted).toBe(true);
    runPieces(b.mergePieces());
    expect(b.text.search(["merged"], 5, () => true)).toEqual(a.text.search(["merged"], 5, () => true));
  });

  it("counts again, or writes from the text, when a flush cleared the term table during the preparation", async () => {
    const big = largeNote(4 * ONE_STEP_CHARS, "cleared");
    const reference = await openIndex(aVault());
    reference.upsert("notes/big.md", big, stat(big));
    reference.upsert("notes/other.md", "other words", stat("x"));
    const expected = reference.text.search(["cleared", "alpha12"], 20, () => true);
    // Cleared between two counting pieces: counted again.
    const during = await openIndex(aVault());
    let flushed = false;
    const generation = during.text.terms.generation;
    await upsertSliced(during, "notes/big.md", big, stat(big), async () => {
      if (flushed || during.text.terms.size === 0) return;
      flushed = true;
      // A flush clears the table once it has written every segment holding terms (this one's).
      during.upsert("notes/other.md", "other words", stat("x"));
      await during.flush();
    });
    expect(during.text.terms.generation).toBeGreaterThan(generation);
    expect(during.text.search(["cleared", "alpha12"], 20, () => true)).toEqual(expected);
    // Cleared after the counting, before the commit: the commit writes the note from its text.
    const after = await openIndex(aVault());
    const prepared = runPieces(after.prepare("notes/big.md", big, stat(big)));
    after.upsert("notes/other.md", "other words", stat("x"));
    await after.flush();
    expect(after.text.terms.size).toBe(0);
    expect(after.commit(prepared)).toBe("changed");
    expect(after.text.search(["cleared", "alpha12"], 20, () => true)).toEqual(expected);
    expect(after.text.chunksOf("notes/big.md")).toEqual(reference.text.chunksOf("notes/big.md"));
  });
});
