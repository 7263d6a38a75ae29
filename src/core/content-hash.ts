/**
 * A fingerprint of the body Synapse last wrote, kept in the page's frontmatter. If the body no
 * longer matches it, the user has edited the page and Synapse must not overwrite it.
 */
import { runPieces, type Pieces } from "./time-slice";

/** Characters hashed in one piece by `contentHashPieces`: a couple of milliseconds at most. */
export const HASH_PIECE_CHARS = 256 * 1024;

export function contentHash(text: string): string {
  return runPieces(contentHashPieces(text));
}

/**
 * `contentHash` in pieces of HASH_PIECE_CHARS, yielding between them (a note of megabytes takes
 * tens of milliseconds to hash, too long for one step on Obsidian's main thread). The text is hashed
 * in place as if CRLF were LF and it were trimmed, without making that copy of it.
 */
export function* contentHashPieces(text: string): Pieces<string> {
  // FNV-1a, 32 bits twice with different seeds: cheap, synchronous, good enough to notice an edit.
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  // Trimming after CRLF → LF cuts where trimming before it does: \r and \n are both white space.
  const end = text.trimEnd().length;
  let i = text.length - text.trimStart().length;
  while (i < end) {
    const to = Math.min(end, i + HASH_PIECE_CHARS);
    for (; i < to; i++) {
      const c = text.charCodeAt(i);
      // A \r before \n is dropped (the \n is hashed next); the text's last character is never \r.
      if (c === 13 && text.charCodeAt(i + 1) === 10) continue;
      a = Math.imul(a ^ c, 0x01000193) >>> 0;
      b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
    }
    if (i < end) yield;
  }
  return a.toString(16).padStart(8, "0") + b.toString(16).padStart(8, "0");
}
