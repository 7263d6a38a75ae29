/**
 * The index stores words as the tokenizer and the chunker cut them, so their output is part of the
 * index format: a change to either without a new INDEX_FORMAT would leave every stored index
 * holding words that queries no longer produce. This test pins their output over the fixture notes
 * (every script) and a few edge texts to the format number: `index-format-golden.json` keeps one
 * digest per format.
 *
 * A new format gets its digest by running this file once with SYNAPSE_RECORD_INDEX_FORMAT=1, which
 * adds the digest of the current format and never replaces one already recorded.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseNote } from "../../src/retrieval/chunker";
import { writeNoteTerms } from "../../src/retrieval/note-terms";
import type { ChunkWriter } from "../../src/retrieval/segment";
import { INDEX_FORMAT } from "../../src/retrieval/shards";
import { tokenize } from "../../src/core/tokenize";
import { fixtureLanguages, fixtureNotes } from "../helpers/fixture-notes";

const GOLDEN = join(import.meta.dirname, "index-format-golden.json");

/** Texts the fixtures lack: long sections cut at blank lines, fences, apostrophes, long and mixed words. */
const EDGE_NOTES: { path: string; text: string }[] = [
  {
    path: "edge/long sections.md",
    text: `---\ntitle: Long sections\naliases: [Cut here]\ntags: [edge]\n---\n# One\n${"word ".repeat(700)}\n\n${"more text ".repeat(300)}\n## Two\n${"x".repeat(4010)}\n`,
  },
  {
    path: "edge/code and links.md",
    text: "# Code\n```\n# not a heading\n```\n~~~~\n## still code\n~~~~\n[[Target|shown label]] ![[Embed]] [md](https://example.org/a_b) [[Page#Part]]\n### Trailing ###\n",
  },
  {
    path: "edge/words.md",
    text: "don't l’été NAÏVE Ångström ﬁne ２０２６ x".concat("y".repeat(45), " 喫茶店で東京タワー a1b2 ÉCOLE née 𝐁old 🙂 über-cool co‑op\r\nCRLF line\r\n"),
  },
  {
    // A page as Synapse writes it: its bookkeeping is neither searchable nor a chunk of its own.
    path: "edge/synapse page.md",
    text: "---\ntype: entity\ntitle: Analytical Engine\nsynapse_id: sy-0123456789abcdef\n---\n\n%% synapse:source notes/Ada.md hash=0123456789abcdef %%\n*From [[notes/Ada|Ada Lovelace]]*\n\n## Mentioned in\n\n- [[Ada Lovelace]]\n\n%% /synapse:source %%\n\n%% synapse:source notes/Engine.md hash=fedcba9876543210 %%\n*From [[notes/Engine|Analytical Engine]]*\n\nA mechanical computer.\n\n%% /synapse:source %%\n",
  },
];

/** What the index receives from a note: its frontmatter fields, chunks and weighted words, in order. */
function transcript(path: string, text: string): unknown {
  const parsed = parseNote(path, text);
  const written: unknown[] = [];
  const writer: ChunkWriter = {
    chunk: (heading, start, end) => written.push(["chunk", heading, start, end]),
    term: (source, start, end, weight) => written.push([source.slice(start, end), weight]),
  };
  writeNoteTerms(text, parsed, writer);
  return { path, title: parsed.title, aliases: parsed.aliases, tags: parsed.tags, sources: parsed.sources, written, words: tokenize(text) };
}

function sampleNotes(): { path: string; text: string }[] {
  const fixtures = fixtureLanguages().flatMap((language) => fixtureNotes(language).map((note) => ({ path: `${language}/${note.path}`, text: note.text })));
  return [...fixtures, ...EDGE_NOTES];
}

function readGolden(): Record<string, string> {
  return JSON.parse(readFileSync(GOLDEN, "utf8")) as Record<string, string>;
}

describe("the index format pins the tokenizer and the chunker", () => {
  it("samples every fixture language and the edge texts", () => {
    const languages = new Set(sampleNotes().map((note) => note.path.split("/")[0]));
    for (const language of ["ar", "de", "en", "he", "hi", "ja", "ko", "ru", "th", "zh", "edge"]) expect(languages).toContain(language);
  });

  it("gives the digest recorded for the current INDEX_FORMAT", () => {
    const digest = createHash("sha256").update(JSON.stringify(sampleNotes().map((note) => transcript(note.path, note.text)))).digest("hex");
    const golden = readGolden();
    const key = String(INDEX_FORMAT);
    if (golden[key] === undefined && process.env.SYNAPSE_RECORD_INDEX_FORMAT === "1") {
      writeFileSync(GOLDEN, `${JSON.stringify({ ...golden, [key]: digest }, null, 2)}\n`);
      return;
    }
    expect(
      golden[key],
      golden[key] === undefined
        ? `INDEX_FORMAT ${key} has no digest in test/retrieval/index-format-golden.json: run this test once with SYNAPSE_RECORD_INDEX_FORMAT=1 to record it.`
        : `The tokenizer's or the chunker's output changed, but INDEX_FORMAT is still ${key}. Bump INDEX_FORMAT in src/retrieval/shards.ts (stored indexes of the old format are then rebuilt), ` +
            `then record the new digest by running this test once with SYNAPSE_RECORD_INDEX_FORMAT=1. (If only Node changed, its ICU ${process.versions.icu ?? "?"} segments words of scripts without spaces.)`,
    ).toBe(digest);
  });
});
