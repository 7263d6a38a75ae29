/**
 * A fingerprint of the body Synapse last wrote, kept in the page's frontmatter. If the body no
 * longer matches it, the user has edited the page and Synapse must not overwrite it.
 */

/**
 * The text is hashed in place as if CRLF were LF and it were trimmed, without making that copy of
 * it (a note of megabytes would otherwise be copied twice just to be hashed).
 */
export function contentHash(text: string): string {
  // FNV-1a, 32 bits twice with different seeds: cheap, synchronous, good enough to notice an edit.
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  // Trimming after CRLF → LF cuts where trimming before it does: \r and \n are both white space.
  const end = text.trimEnd().length;
  for (let i = text.length - text.trimStart().length; i < end; i++) {
    const c = text.charCodeAt(i);
    // A \r before \n is dropped (the \n is hashed next); the text's last character is never \r.
    if (c === 13 && text.charCodeAt(i + 1) === 10) continue;
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return a.toString(16).padStart(8, "0") + b.toString(16).padStart(8, "0");
}
