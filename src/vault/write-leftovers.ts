/**
 * What an interrupted guarded write (`node-guarded-write.ts`) leaves beside a file, and how a later
 * start settles it: a temporary file goes; a set-aside file goes back to its path when nothing is
 * there, goes when it matches the file there, and is otherwise kept as a "(conflict)" copy beside it,
 * so no version of a file is lost. The Node vault and the Obsidian vault both settle what a killed
 * CLI left, each with its own file operations; the decisions are made here once.
 */
import type { StrayFiles } from "./vault-port";

/** What a write in progress is called until it is linked into place; a crash can leave one. */
export const TEMP_SUFFIX = ".synapse-tmp";
/** What a file being replaced or removed is called while it is compared; a crash can leave one. */
export const ASIDE_SUFFIX = ".synapse-aside";
const SET_ASIDE = /^(.*)\.[0-9a-f]{12}\.synapse-aside$/;
/** Copies tried before giving up ("Page (conflict).md", "Page (conflict 2).md", …). */
export const MAX_COPIES = 99;

/** Is this file name something an interrupted write leaves? */
export function isLeftover(fileName: string): boolean {
  return fileName.endsWith(TEMP_SUFFIX) || SET_ASIDE.test(fileName);
}

/** The path a set-aside file was taken from, or null when it is no set-aside file. */
export function setAsideTarget(path: string): string | null {
  return SET_ASIDE.exec(path)?.[1] ?? null;
}

/** The `n`th copy's name of a file name: "Page (conflict).md", "Page (conflict 2).md", … */
export function conflictCopyName(fileName: string, n: number): string {
  const dot = fileName.lastIndexOf(".");
  const [stem, ext] = dot > 0 ? [fileName.slice(0, dot), fileName.slice(dot)] : [fileName, ""];
  return `${stem} (conflict${n === 1 ? "" : ` ${n}`})${ext}`;
}

/** The file operations settling needs, over paths of the vault's own kind. */
export interface LeftoverOps {
  remove(file: string): Promise<void>;
  /** Moves `file` to `target` when nothing is at `target`; false (and nothing moved) when something is. */
  moveIfFree(file: string, target: string): Promise<boolean>;
  sameContent(a: string, b: string): Promise<boolean>;
  /** Moves `file` to the first free conflict copy name beside `target` and returns that path. */
  keepAsCopy(file: string, target: string): Promise<string>;
  /** The vault path a message names. */
  name(file: string): string;
}

/** Settles the leftovers among `files`; other files are left alone. */
export async function settleLeftovers(ops: LeftoverOps, files: readonly string[]): Promise<StrayFiles> {
  const removed: string[] = [];
  const restored: string[] = [];
  const keptAs: string[] = [];
  for (const file of files) {
    if (file.endsWith(TEMP_SUFFIX)) {
      await ops.remove(file);
      removed.push(ops.name(file));
      continue;
    }
    const target = setAsideTarget(file);
    if (target === null) continue;
    if (await ops.moveIfFree(file, target)) {
      restored.push(ops.name(target));
    } else if (await ops.sameContent(file, target)) {
      await ops.remove(file);
      removed.push(ops.name(file));
    } else {
      keptAs.push(ops.name(await ops.keepAsCopy(file, target)));
    }
  }
  return { removed: removed.sort(), restored: restored.sort(), keptAs: keptAs.sort() };
}
