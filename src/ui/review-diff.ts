/**
 * What a review shows of a change: the page's content as a person reads it, without Synapse's own
 * bookkeeping — the `%% synapse:… %%` source markers, their `*From [[…]]*` attributions and the
 * `synapse_id` / `synapse_hash` frontmatter keys. Their changes are Synapse's business (a marker's
 * hash changes whenever its note does), so a diff of them is noise: hash-only −/+ pairs, ids.
 * Plain functions, no Obsidian.
 */
import { isProvenanceLine } from "../core/provenance-strip";
import { unifiedDiff, type ReviewChange } from "../wiki/review";

const BOOKKEEPING_KEY = /^(synapse_id|synapse_hash):/;
const FRONTMATTER = /^---\r?\n[\s\S]*?\r?\n---\r?\n?/;

/** The page without Synapse's marker and attribution lines and its own frontmatter keys. */
export function readableText(text: string): string {
  const lines = text.split("\n");
  let inFrontmatter = lines[0]?.trimEnd() === "---";
  const kept: string[] = [];
  lines.forEach((line, i) => {
    if (inFrontmatter && i > 0 && line.trimEnd() === "---") inFrontmatter = false;
    else if (inFrontmatter && BOOKKEEPING_KEY.test(line)) return;
    if (!inFrontmatter && isProvenanceLine(line)) return;
    kept.push(line);
  });
  // Squeeze the blank runs a removed marker leaves, so they do not show as changes either.
  return kept.join("\n").replace(/\n{3,}/g, "\n\n");
}

/** A new page's text as it will read: no frontmatter, no bookkeeping. */
export function newPageText(after: string): string {
  return readableText(after).replace(FRONTMATTER, "").trim();
}

export type DiffLineKind = "added" | "removed" | "context" | "hunk" | "note";

export interface DiffLine {
  readonly kind: DiffLineKind;
  readonly text: string;
}

/** The lines of a unified diff as a person reads them; the two file header lines are dropped. */
export function diffLines(diff: string): DiffLine[] {
  const lines = diff.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const out: DiffLine[] = [];
  let inHunk = false;
  for (const line of lines) {
    if (line.startsWith("@@")) {
      inHunk = true;
      out.push({ kind: "hunk", text: line });
    } else if (!inHunk) continue; // "--- a/path" and "+++ b/path"
    else if (line.startsWith("+")) out.push({ kind: "added", text: line });
    else if (line.startsWith("-")) out.push({ kind: "removed", text: line });
    else if (line.startsWith("\\")) out.push({ kind: "note", text: line });
    else out.push({ kind: "context", text: line });
  }
  return out;
}

export interface ReadableChange {
  /** The diff of the readable texts; empty when only bookkeeping changed. */
  readonly lines: readonly DiffLine[];
  readonly added: number;
  readonly removed: number;
}

/** The change as a reader sees it: the diff of the readable texts before and after, and its counts. */
export function readableChange(change: ReviewChange): ReadableChange {
  const before = change.before === null ? null : readableText(change.before);
  const after = change.after === null ? null : readableText(change.after);
  const lines = before === after ? [] : diffLines(unifiedDiff(change.path, before, after));
  return {
    lines,
    added: lines.filter((l) => l.kind === "added").length,
    removed: lines.filter((l) => l.kind === "removed").length,
  };
}
