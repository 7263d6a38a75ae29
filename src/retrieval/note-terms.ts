/** Turns a parsed note into the weighted terms of each chunk: title and aliases count most, then headings. */
import { searchableText, type Chunk, type ParsedNote } from "./chunker";
import type { ChunkTerms } from "./text-index";
import { tokenize } from "./tokenize";

/** Extra weight of a title or alias word in every chunk of its note, and of a heading word in its chunk. */
export const TITLE_BOOST = 3;
export const HEADING_BOOST = 1;

export function chunkTerms(markdown: string, parsed: ParsedNote): ChunkTerms[] {
  const titleWords = tokenize([parsed.title, ...parsed.aliases].join(" \n "));
  const chunks: readonly Chunk[] = parsed.chunks.length > 0 ? parsed.chunks : [{ heading: "", start: markdown.length, end: markdown.length }];
  return chunks.map((chunk) => {
    const freqs = new Map<string, number>();
    const add = (words: readonly string[], weight: number) => {
      for (const w of words) freqs.set(w, (freqs.get(w) ?? 0) + weight);
    };
    const body = tokenize(searchableText(markdown, chunk));
    const heading = tokenize(chunk.heading);
    add(body, 1);
    add(heading, HEADING_BOOST);
    add(titleWords, TITLE_BOOST);
    return {
      heading: chunk.heading,
      start: chunk.start,
      end: chunk.end,
      length: body.length + heading.length * HEADING_BOOST + titleWords.length * TITLE_BOOST,
      terms: [...freqs.keys()],
      freqs: [...freqs.values()].map((f) => Math.min(255, f)),
    };
  });
}
