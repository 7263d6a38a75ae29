/**
 * A fingerprint of the body Synapse last wrote, kept in the page's frontmatter. If the body no
 * longer matches it, the user has edited the page and Synapse must not overwrite it.
 */
export function contentHash(text: string): string {
  // FNV-1a, 32 bits twice with different seeds: cheap, synchronous, good enough to notice an edit.
  const normalised = text.replace(/\r\n/g, "\n").trim();
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < normalised.length; i++) {
    const c = normalised.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return a.toString(16).padStart(8, "0") + b.toString(16).padStart(8, "0");
}
