/**
 * The first half of writing a note into the vault index (`VaultIndex.prepare`): everything that can
 * run before the index changes — hashing, chunking, extracting links and, for a large note,
 * hashing it and counting its terms in pieces (prepared-note.ts). `VaultIndex.commit` then writes
 * the result in one short step, or refuses it when the note was edited since the preparation began.
 */
import { contentHash, contentHashPieces } from "../core/content-hash";
import { parseNoteWith } from "./chunks";
import type { LinkExtractor, NoteLinks } from "./links";
import type { FrontmatterReader } from "./note-frontmatter";
import { writeNoteTerms } from "./note-terms";
import { countNoteTerms } from "./prepared-note";
import type { TermTable } from "./term-table";
import type { NumberedChunkWriter } from "./text-index";
import type { Pieces } from "../core/time-slice";

/**
 * A note made ready for the index by `prepare` (chunked, links extracted, terms counted), which
 * `commit` writes in one short step — unless the note was written or removed meanwhile.
 */
export interface PreparedNote {
  readonly path: string;
  readonly stat: { readonly mtime: number; readonly size: number };
  readonly hash: string;
  /** The count of edits when preparation began: an edit of this note since makes it stale. */
  readonly stamp: number;
  /** What the commit does: drop the note (excluded), record its new time and links (same text), or write it. */
  readonly change: "excluded" | SameText | NewText;
}

/**
 * The text the index holds already. Its links are extracted all the same: an extractor that reads
 * Obsidian's metadata cache may have paired this text with another version's links before (the
 * sync reads notes ahead of indexing them, the cache lags behind an edit), and only a later
 * extraction can set them right.
 */
export interface SameText {
  readonly kind: "same";
  readonly links: NoteLinks;
}

export interface NewText {
  readonly kind: "new";
  readonly links: NoteLinks;
  readonly write: (writer: NumberedChunkWriter) => void;
}

/** What a commit did: wrote the note, found nothing to write, or refused a stale preparation. */
export type CommitOutcome = "changed" | "unchanged" | "stale";

/**
 * Notes up to this long are tokenised straight into the index when committed (a few milliseconds
 * at most, less than counting their terms first would cost); longer ones are counted in pieces.
 */
export const ONE_STEP_CHARS = 32 * 1024;

/** What the index knows of the note when its preparation begins. */
export interface PreparationContext {
  /** The index's edit count now (`EditLog.stamp`). */
  readonly stamp: number;
  /** The note is never indexed (an excluded folder, the wiki's index.md or log.md). */
  readonly excluded: boolean;
  /** The hash of the text the index holds for the note, if it holds the note. */
  readonly indexedHash: string | undefined;
  readonly extract: LinkExtractor;
  /** Where the note's frontmatter values come from (asked only for a note that is indexed). */
  readonly frontmatter: FrontmatterReader;
  /** The index's term table: a large note's terms are numbered by it as they are counted. */
  readonly terms: TermTable;
}

// eslint-disable-next-line require-yield -- a preparation done at once is a single piece: nothing to yield between
function* prepared<T>(value: T): Pieces<T> {
  return value;
}

/**
 * The note is chunked and its links extracted at once, in this call (the plugin's extractor reads
 * the metadata cache of the event being applied), even when the hash then finds its text
 * unchanged (see `SameText`). A note up to ONE_STEP_CHARS is hashed at once too, and its terms
 * written by the commit; a longer one is hashed, then its terms counted, in pieces.
 */
export function prepareNote(path: string, markdown: string, stat: { readonly mtime: number; readonly size: number }, context: PreparationContext): Pieces<PreparedNote> {
  const note = { path, stat: { mtime: stat.mtime, size: stat.size }, stamp: context.stamp };
  if (context.excluded) return prepared({ ...note, hash: "", change: "excluded" });
  if (markdown.length <= ONE_STEP_CHARS) {
    const hash = contentHash(markdown);
    const parsed = parseNoteWith(path, markdown, context.frontmatter(path, markdown));
    const links = context.extract(path, markdown, parsed);
    if (context.indexedHash === hash) return prepared({ ...note, hash, change: { kind: "same", links } });
    return prepared({ ...note, hash, change: { kind: "new", links, write: (writer) => writeNoteTerms(markdown, parsed, writer) } });
  }
  const parsed = parseNoteWith(path, markdown, context.frontmatter(path, markdown));
  const links = context.extract(path, markdown, parsed);
  return (function* (): Pieces<PreparedNote> {
    yield;
    const hash = yield* contentHashPieces(markdown);
    if (context.indexedHash === hash) return { ...note, hash, change: { kind: "same", links } };
    yield;
    const counted = yield* countNoteTerms(markdown, parsed, context.terms);
    return { ...note, hash, change: { kind: "new", links, write: (writer) => counted.write(writer) } };
  })();
}
