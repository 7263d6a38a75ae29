/**
 * Writes a parsed note's words into the text index, chunk by chunk: title and aliases count most,
 * then headings; words with Han over two characters also by their bigrams.
 */
import { searchableText, type Chunk, type ParsedNote } from "./chunks";
import type { ChunkWriter } from "./segment";
import { withBigrams, withCompoundParts } from "./compound-grams";
import { forEachToken, tokenize } from "../core/tokenize";

/** Extra weight of a title or alias word in every chunk of its note, and of a heading word in its chunk. */
export const TITLE_BOOST = 3;
export const HEADING_BOOST = 1;

/**
 * Each chunk's words go to `writer` as they are cut (no list of words per chunk); its length is the
 * sum of their weights: body words 1, heading words 1 + HEADING_BOOST in all, title and alias words
 * TITLE_BOOST in every chunk.
 */
export function writeNoteTerms(markdown: string, parsed: ParsedNote, writer: ChunkWriter): void {
  const titleWords = withCompoundParts(tokenize([parsed.title, ...parsed.aliases].join(" \n ")));
  const chunks: readonly Chunk[] = parsed.chunks.length > 0 ? parsed.chunks : [{ heading: "", start: markdown.length, end: markdown.length }];
  // A compound with Han also counts as its bigrams, so a part of it finds it (compound-grams.ts).
  const body = withBigrams((source, start, end) => writer.term(source, start, end, 1));
  const heading = withBigrams((source, start, end) => writer.term(source, start, end, HEADING_BOOST));
  for (const chunk of chunks) {
    writer.chunk(chunk.heading, chunk.start, chunk.end);
    forEachToken(searchableText(markdown, chunk), body);
    forEachToken(chunk.heading, heading);
    for (const word of titleWords) writer.term(word, 0, word.length, TITLE_BOOST);
  }
}
