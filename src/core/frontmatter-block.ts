/**
 * Where a note's frontmatter block is — the text between its `---` fences, and where the body
 * starts — found without parsing it: chunk offsets depend on it, the YAML inside does not.
 */

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

export interface FrontmatterBlock {
  /** The raw frontmatter between the fences. */
  readonly raw: string;
  /** The text after the closing fence (a leading byte-order mark is not part of it). */
  readonly body: string;
}

/** The note's frontmatter block, or null when it has none (a byte-order mark before the fence is allowed). */
export function frontmatterBlock(text: string): FrontmatterBlock | null {
  const unmarked = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const match = FRONTMATTER.exec(unmarked);
  if (!match) return null;
  return { raw: match[1] ?? "", body: unmarked.slice(match[0].length) };
}

/** Where the body starts in `text` (UTF-16 offset): after the frontmatter block, or 0 without one. */
export function bodyStart(text: string): number {
  const block = frontmatterBlock(text);
  return block ? text.length - block.body.length : 0;
}
