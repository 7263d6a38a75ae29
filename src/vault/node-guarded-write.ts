/**
 * Replacing or removing a file only if it holds what the caller expects *at the moment it goes*,
 * on a file system with no compare-and-swap. Reading, comparing and then renaming leaves a window
 * (one read long: 300 ms on a synced disk) in which an editor's save is overwritten unseen. The
 * protocol closes it by taking the file away from its path before comparing it:
 *
 * 1. the new content is written to a temporary file beside the target (`<name>.<tag>.synapse-tmp`);
 * 2. the target is renamed aside to a private name (`<name>.<tag>.synapse-aside`), atomically. From
 *    now on an editor that saves by writing a new file, or by opening the path afresh, creates a new
 *    file at the path; one already holding the old file open writes into the set-aside copy;
 * 3. the set-aside copy is compared with the expectation;
 * 4. mismatch: it is put back with `link`, which never overwrites — if a new file appeared at the
 *    path meanwhile, both are kept (the set-aside one under a "(conflict)" name) and the error says
 *    so. Nothing of ours was written;
 * 5. match: the temporary file is linked into place; `link` fails when someone created the path
 *    meanwhile, and then their file stays and nothing of ours is written (a conflict);
 * 6. the set-aside copy is compared once more — something written through a descriptor opened
 *    before step 2 lands there — and removed only if it still holds the expectation; otherwise it
 *    is kept under a "(conflict)" name and the error names it.
 *
 * What is left: a write through a descriptor opened before step 2 that lands between the last
 * comparison and the unlink of step 6 (microseconds, and only for editors that keep a file open
 * across a save). A crash between steps 2 and 5 leaves the file only under its set-aside name;
 * `settleLeftovers` (run by recovery, after the journal is rolled back) puts it back, or keeps it
 * beside the file now at its path when the two differ.
 */
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";
import { SynapseError } from "../core/errors";
import { errorCode, type NodeFsOps } from "./node-fs-ops";
import type { StrayFiles } from "./vault-port";
import { ASIDE_SUFFIX, conflictCopyName, MAX_COPIES, settleLeftovers as settle, TEMP_SUFFIX } from "./write-leftovers";

/** Does a file's content, as bytes, hold the expectation? */
export type Expectation = (bytes: Buffer) => boolean;

/** The text the file must hold: compared as bytes first (cheap), else decoded as `read` decodes it. */
export function holdsText(expected: string): Expectation {
  let encoded: Buffer | null = null;
  return (bytes) => {
    encoded ??= Buffer.from(expected, "utf8");
    return bytes.equals(encoded) || (bytes.length >= expected.length && bytes.toString("utf8") === expected);
  };
}

export type GuardedOutcome = "done" | "changed" | "gone";

/** Turns an absolute path into the vault path an error names. */
export type Namer = (full: string) => string;

function tag(): string {
  return randomBytes(6).toString("hex");
}

/** The first free "<name> (conflict[ n]).<ext>" beside `full`, made a name of `file` (never overwriting). */
async function keepAsCopy(fs: NodeFsOps, file: string, full: string): Promise<string> {
  for (let n = 1; n <= MAX_COPIES; n++) {
    const copy = join(dirname(full), conflictCopyName(basename(full), n));
    try {
      await fs.link(file, copy);
    } catch (error) {
      if (errorCode(error) === "EEXIST") continue;
      throw error;
    }
    await fs.rm(file);
    return copy;
  }
  throw new SynapseError("vault", `No free name is left beside "${basename(full)}" for a copy of it; it is kept as "${basename(file)}".`);
}

/** Puts a set-aside file back at its path; when a new file is there now, keeps both and says so. */
async function putBack(fs: NodeFsOps, aside: string, full: string, name: Namer): Promise<void> {
  try {
    await fs.link(aside, full);
  } catch (error) {
    if (errorCode(error) !== "EEXIST") throw error;
    const copy = await keepAsCopy(fs, aside, full);
    throw new SynapseError("vault", `"${name(full)}" was saved again while Synapse checked it; both versions are kept: "${name(full)}" and "${name(copy)}".`);
  }
  await fs.rm(aside);
}

/** Step 6: the set-aside copy goes only if nothing was written into it since it was compared. */
async function dropAside(fs: NodeFsOps, aside: string, full: string, expected: Expectation, name: Namer): Promise<void> {
  if (expected(await fs.readFile(aside))) {
    await fs.rm(aside);
    return;
  }
  const copy = await keepAsCopy(fs, aside, full);
  throw new SynapseError("vault", `"${name(full)}" was written to while Synapse replaced it; what was written is kept as "${name(copy)}".`);
}

/** Steps 2–3: where the file was set aside, or why it was not kept there. */
type SetAside = { readonly aside: string } | "changed" | "gone";

/**
 * Steps 2–3 and what follows a mismatch: the file set aside and compared. The aside's name when it
 * holds the expectation; "changed" (or a thrown error) with the file back at its path otherwise.
 */
async function setAside(fs: NodeFsOps, full: string, expected: Expectation, name: Namer): Promise<SetAside> {
  const aside = `${full}.${tag()}${ASIDE_SUFFIX}`;
  try {
    await fs.rename(full, aside);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return "gone";
    throw error;
  }
  let held: Buffer;
  try {
    held = await fs.readFile(aside);
  } catch (error) {
    await putBack(fs, aside, full, name);
    throw error;
  }
  if (expected(held)) return { aside };
  await putBack(fs, aside, full, name);
  return "changed";
}

/** Writes `content` over `full` if the file holds `expected` when it is replaced (the protocol above). */
export async function replaceGuarded(fs: NodeFsOps, full: string, expected: Expectation, content: string | Uint8Array, name: Namer): Promise<GuardedOutcome> {
  const temp = `${full}.${tag()}${TEMP_SUFFIX}`;
  try {
    await fs.writeFile(temp, content);
    const setAsideAs = await setAside(fs, full, expected, name);
    if (typeof setAsideAs === "string") return setAsideAs;
    const { aside } = setAsideAs;
    try {
      await fs.link(temp, full);
    } catch (error) {
      if (errorCode(error) !== "EEXIST") {
        await putBack(fs, aside, full, name);
        throw error;
      }
      // A new file at the path since step 2: theirs stays; ours was never written.
      await dropAside(fs, aside, full, expected, name);
      return "changed";
    }
    await dropAside(fs, aside, full, expected, name);
    return "done";
  } finally {
    await fs.rm(temp);
  }
}

/** Removes `full` if it holds `expected` when it goes; "gone" when nothing was there. */
export async function removeGuarded(fs: NodeFsOps, full: string, expected: Expectation, name: Namer): Promise<GuardedOutcome> {
  const setAsideAs = await setAside(fs, full, expected, name);
  if (typeof setAsideAs === "string") return setAsideAs;
  await fs.rm(setAsideAs.aside);
  return "done";
}

/** What an interrupted write left among these files (absolute paths), settled (see `write-leftovers.ts`). */
export function settleLeftovers(fs: NodeFsOps, files: readonly string[], name: Namer): Promise<StrayFiles> {
  return settle(
    {
      remove: (file) => fs.rm(file),
      async moveIfFree(file, target) {
        if (await fs.isFile(target)) return false;
        try {
          await fs.link(file, target);
        } catch (error) {
          if (errorCode(error) === "EEXIST") return false;
          throw error;
        }
        await fs.rm(file);
        return true;
      },
      async sameContent(a, b) {
        const [held, there] = await Promise.all([fs.readFile(a), fs.readFile(b)]);
        return held.equals(there);
      },
      keepAsCopy: (file, target) => keepAsCopy(fs, file, target),
      name,
    },
    files,
  );
}
