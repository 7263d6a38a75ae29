/**
 * A file's change as the lines it replaced, for the journal and the history of a file that grows
 * with the wiki (index.md): recording the few lines a run touched instead of two copies of a file
 * of megabytes keeps a run's cost flat, and is still enough to give back the exact bytes.
 *
 * Lines are the text split at "\n" and nothing else: a "\r" stays on its line and the text after
 * the last "\n" (often "") is a line too, so splitting and joining again is the identity.
 */
import * as z from "zod";

export const LineHunkSchema = z.object({
  /** Index, in the earlier text's lines, of the first line replaced (or where lines are inserted). */
  at: z.number().int().nonnegative(),
  /** The earlier text's lines from `at` that the change replaced, exactly. */
  remove: z.array(z.string()),
  /** The lines that replaced them, exactly. */
  insert: z.array(z.string()),
});
export type LineHunk = z.infer<typeof LineHunkSchema>;

/** How one text became another, and the lengths that tell the two apart. */
export const LineChangeSchema = z.object({
  /** In order of `at`, never overlapping. */
  hunks: z.array(LineHunkSchema),
  /** Length (UTF-16 code units) of the text before the change. */
  beforeLength: z.number().int().nonnegative(),
  /** Length (UTF-16 code units) of the text after it. */
  afterLength: z.number().int().nonnegative(),
});
export type LineChange = z.infer<typeof LineChangeSchema>;

/**
 * How far ahead a mismatch is looked for its end before the rest of the file is taken as one
 * hunk. Runs change a handful of lines; a bound keeps a pathological pair of texts linear.
 */
const LOOKAHEAD = 64;

/** Do `a[i…]` and `b[j…]` agree on two lines (or up to the end of both)? */
function resyncs(a: readonly string[], i: number, b: readonly string[], j: number): boolean {
  if (i >= a.length || j >= b.length) return i >= a.length && j >= b.length;
  if (a[i] !== b[j]) return false;
  return i + 1 >= a.length || j + 1 >= b.length ? i + 1 >= a.length && j + 1 >= b.length : a[i + 1] === b[j + 1];
}

/** Compared a block at a time (string equality is a memory compare), then a character at a time. */
const BLOCK = 1024;

const FLATTEN = /^/;

/** How many characters `a` and `b` share at their start. */
function commonPrefix(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let n = 0;
  while (n + BLOCK <= max && a.slice(n, n + BLOCK) === b.slice(n, n + BLOCK)) n += BLOCK;
  while (n < max && a.charCodeAt(n) === b.charCodeAt(n)) n++;
  return n;
}

/** How many characters `a` and `b` share at their end, at most `max`. */
function commonSuffix(a: string, b: string, max: number): number {
  let n = 0;
  while (n + BLOCK <= max && a.slice(a.length - n - BLOCK, a.length - n) === b.slice(b.length - n - BLOCK, b.length - n)) n += BLOCK;
  while (n < max && a.charCodeAt(a.length - n - 1) === b.charCodeAt(b.length - n - 1)) n++;
  return n;
}

function countNewlines(text: string, end: number): number {
  let count = 0;
  for (let at = text.indexOf("\n"); at !== -1 && at < end; at = text.indexOf("\n", at + 1)) count++;
  return count;
}

/**
 * The hunks that turn `before` into `after`. Linear in the length of the texts for the few, local
 * changes a run makes (the first lines that agree again after a difference end its hunk), and
 * always exact: applying the hunks to `before` gives `after`, whatever the texts. The lines the two
 * texts share at their start and at their end are found by comparing the texts, not split into
 * lines: in a file of megabytes only the part between the first and the last change is.
 */
export function lineChange(before: string, after: string): LineChange {
  // A text just edited is a rope of pieces; a regular expression lays it out flat first, once,
  // where comparing and slicing it piece by piece would walk the rope again and again.
  FLATTEN.test(before);
  FLATTEN.test(after);
  // Whole lines shared at the start: up to the line where the texts first differ.
  const shared = commonPrefix(before, after);
  const prefix = shared === 0 ? 0 : before.lastIndexOf("\n", shared - 1) + 1;
  // Whole lines shared at the end: after the first "\n" inside the shared end (so both texts have
  // it, and the lines after it are the same in both), never reaching into the shared start.
  const suffix = commonSuffix(before, after, Math.min(before.length, after.length) - prefix);
  const cut = suffix === 0 ? -1 : before.indexOf("\n", before.length - suffix);
  const middle = (text: string) => text.slice(prefix, cut === -1 ? text.length : text.length - (before.length - cut));
  const hunks = lineHunks(middle(before).split("\n"), middle(after).split("\n"), countNewlines(before, prefix));
  return { hunks, beforeLength: before.length, afterLength: after.length };
}

/** The hunks that turn lines `a` into lines `b`, their positions shifted by `offset` lines. */
function lineHunks(a: readonly string[], b: readonly string[], offset: number): LineHunk[] {
  const hunks: LineHunk[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    let end: { i: number; j: number } | null = null;
    for (let d = 1; d <= LOOKAHEAD && end === null; d++) {
      for (let k = 0; k <= d; k++) {
        if (resyncs(a, i + k, b, j + d - k)) {
          end = { i: i + k, j: j + d - k };
          break;
        }
      }
    }
    end ??= { i: a.length, j: b.length };
    hunks.push({ at: offset + i, remove: a.slice(i, end.i), insert: b.slice(j, end.j) });
    i = end.i;
    j = end.j;
  }
  return hunks;
}

/** Replaces, in `lines`, each hunk's `from` lines by its `to` lines; null when `from` is not there. */
function patch(lines: string[], hunks: readonly LineHunk[], forward: boolean): string[] | null {
  const positions: number[] = [];
  let shift = 0;
  for (const hunk of hunks) {
    // Going back, a hunk sits where the earlier hunks' insertions have moved it.
    const at = hunk.at + (forward ? 0 : shift);
    const from = forward ? hunk.remove : hunk.insert;
    if (at + from.length > lines.length || from.some((line, k) => lines[at + k] !== line)) return null;
    positions.push(at);
    shift += hunk.insert.length - hunk.remove.length;
  }
  // From the last hunk to the first, so that the earlier positions stay put.
  for (let h = hunks.length - 1; h >= 0; h--) {
    const hunk = hunks[h];
    const at = positions[h];
    if (hunk === undefined || at === undefined) continue;
    lines.splice(at, (forward ? hunk.remove : hunk.insert).length, ...(forward ? hunk.insert : hunk.remove));
  }
  return lines;
}

/** The text after the change, from the text before it; null when `text` is not that text. */
export function applyLineChange(text: string, change: LineChange): string | null {
  if (text.length !== change.beforeLength) return null;
  const lines = patch(text.split("\n"), change.hunks, true);
  const applied = lines === null ? null : lines.join("\n");
  return applied !== null && applied.length === change.afterLength ? applied : null;
}

/** The text before the change, from the text after it; null when `text` is not that text. */
export function revertLineChange(text: string, change: LineChange): string | null {
  if (text.length !== change.afterLength) return null;
  const lines = patch(text.split("\n"), change.hunks, false);
  const reverted = lines === null ? null : lines.join("\n");
  return reverted !== null && reverted.length === change.beforeLength ? reverted : null;
}
