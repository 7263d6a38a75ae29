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

/**
 * The hunks that turn `before` into `after`. Linear in the length of the texts for the few, local
 * changes a run makes (the first lines that agree again after a difference end its hunk), and
 * always exact: applying the hunks to `before` gives `after`, whatever the texts.
 */
export function lineChange(before: string, after: string): LineChange {
  const a = before.split("\n");
  const b = after.split("\n");
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
    hunks.push({ at: i, remove: a.slice(i, end.i), insert: b.slice(j, end.j) });
    i = end.i;
    j = end.j;
  }
  return { hunks, beforeLength: before.length, afterLength: after.length };
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
