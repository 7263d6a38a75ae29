/**
 * A note parsed for the index as the index opened in process reads it: its frontmatter by the
 * `yaml` package (core/markdown.ts), its chunks by chunks.ts. The index's worker never imports
 * this file; the main thread reads the frontmatter for it with `readFrontmatter`.
 */
import { splitFrontmatter } from "../core/markdown";
import { parseNoteWith, type ParsedNote } from "./chunks";
import { noteFrontmatter, type NoteFrontmatter } from "./note-frontmatter";

export { basenameOf, chunkNote, MAX_CHUNK_CHARS, parseNoteWith, searchableText, type Chunk, type ParsedNote } from "./chunks";

/** A note's frontmatter values, parsed from its text. */
export function readFrontmatter(_path: string, markdown: string): NoteFrontmatter {
  return noteFrontmatter(splitFrontmatter(markdown).frontmatter);
}

export function parseNote(path: string, markdown: string): ParsedNote {
  return parseNoteWith(path, markdown, readFrontmatter(path, markdown));
}
