/**
 * What a note's text must be to reach a model at all — ingest's analysis or the embedding model
 * alike. Ingest refuses a note holding a NUL byte as binary (src/wiki/read-note.ts reads its
 * bytes); a reader that hands over decoded text keeps the NUL, so the same rule reads it here.
 */

/** Does this text hold a NUL, the mark of a binary file named like a note? */
export function looksBinary(text: string): boolean {
  return text.includes("\u0000");
}
