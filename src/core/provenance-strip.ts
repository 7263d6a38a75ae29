/**
 * Synapse's own bookkeeping inside a page — the `%% synapse:source … %%` markers around each
 * source section and the `*From [[…]]*` attribution line under each opening marker (see
 * provenance.ts) — is for Synapse and the reader of the rendered page, not for a model or a
 * snippet: a marker's hash is noise that a model copies into answers, and a passage holding only
 * a marker and an attribution says nothing. Every text sent to a model or shown as a snippet goes
 * through here.
 *
 * One pass over the lines; each line is tested with anchored patterns that have no nested
 * quantifiers, so the cost is linear in the text whatever it holds.
 */
import { bodyStart } from "./frontmatter-block";

/** An opening or closing marker line, whatever its path or hash (a hand-damaged one too). */
const MARKER_LINE = /^[ \t]*%% \/?synapse:[^\n]*%%[ \t]*$/;
/** The attribution Synapse writes under an opening marker: `*From [[target|label]]*`. */
const ATTRIBUTION_LINE = /^[ \t]*\*From \[\[[^\]\n]*\]\]\*[ \t]*$/;

/** Is this one line Synapse's bookkeeping (a source marker or an attribution line)? */
export function isProvenanceLine(line: string): boolean {
  const bare = line.endsWith("\r") ? line.slice(0, -1) : line;
  return MARKER_LINE.test(bare) || ATTRIBUTION_LINE.test(bare);
}

/**
 * The text without marker and attribution lines, blank runs they leave squeezed to one blank line
 * and the ends trimmed. Empty when the text was nothing but bookkeeping: such a passage is dropped.
 */
export function stripProvenance(text: string): string {
  if (!text.includes("%%") && !text.includes("*From [[")) return text.trim();
  const kept: string[] = [];
  let blank = false;
  for (const line of text.split("\n")) {
    if (isProvenanceLine(line)) continue;
    const isBlank = line.trim() === "";
    if (isBlank && (blank || kept.length === 0)) continue;
    kept.push(line);
    blank = isBlank;
  }
  return kept.join("\n").trim();
}

/**
 * A whole page file as a model reads it (a staged copy for the agent, an MCP client's read): the
 * frontmatter block kept as it stands, the body without bookkeeping. A page without any returns
 * byte for byte, so a note of the user's is never reflowed for nothing.
 */
export function stripPageProvenance(markdown: string): string {
  const start = bodyStart(markdown);
  const body = markdown.slice(start);
  if (!body.split("\n").some(isProvenanceLine)) return markdown;
  const head = markdown.slice(0, start);
  const clean = stripProvenance(body);
  if (head === "") return clean ? `${clean}\n` : "";
  const fenced = head.endsWith("\n") ? head : `${head}\n`;
  return clean ? `${fenced}\n${clean}\n` : fenced;
}
