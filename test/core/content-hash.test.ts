/**
 * The content hash is the hash of the text with CRLF made LF and trimmed, computed without that
 * copy: a note's stored hash must not change with how it was computed.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contentHash } from "../../src/core/content-hash";

/** The definition: FNV-1a twice over the normalised copy of the text. */
function reference(text: string): string {
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

describe("the content hash", () => {
  it("is the normalised text's hash, whatever the line ends and white space", () => {
    const part = fc.constantFrom("a", "b c", "\r\n", "\r", "\n", "\r\r\n", " ", "\t", "\u00a0", "\ufeff", "é", "東京", "\n\r");
    fc.assert(
      fc.property(fc.array(part, { maxLength: 40 }).map((p) => p.join("")), (text) => {
        expect(contentHash(text)).toBe(reference(text));
      }),
      { numRuns: 500 },
    );
  });

  it("hashes a long text, CRLFs and trailing white space included, to the normalised text's hash", () => {
    const text = `${"x".repeat(256 * 1024 - 1)}\r\n${"word\r\n".repeat(90_000)}  \r\n`;
    expect(contentHash(text)).toBe(reference(text));
  });
});
