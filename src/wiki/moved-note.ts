/**
 * A note moved or renamed since its pages were written, found so that its re-ingest revises its
 * part of those pages as the same source (former-sources.ts) instead of adding a second one.
 *
 * - Moved alone, it is "already up to date" and recognised by its content (source-registry.ts); its
 *   entry then keeps the old path in `formerPaths`, and the next ingest that writes uses them.
 * - Moved and changed between two ingests, its content says nothing. It is the note a page cites
 *   under the same file name in another folder (or the same path in another case), when that note
 *   is gone and the note being ingested was never ingested. The cited path may have no entry of its
 *   own (the note was moved once, recorded, then moved again): the section on the page is proof
 *   enough that it was ingested into this wiki. Two such notes gone is no answer: neither is taken.
 *   The file name is only a clue (Untitled.md, README.md, daily notes repeat across folders): the
 *   note must yield again a page holding that note's section, else it is another note and the
 *   gone note's sections are not retracted. A note renamed and changed between two ingests is not
 *   recognised here: nothing but its content tied it to its old name. The plugin records a rename
 *   as Obsidian reports it (`recordMove`, src/obsidian/note-moves.ts), so there it is known.
 */
import { nameKey } from "../core/unicode";
import type { WikiPage } from "../core/schemas";
import { sourceKey } from "../core/sources";
import type { VaultPort } from "../vault/vault-port";
import { findPagesById, registryOf, type PageRegistry } from "./identity";
import { titleKey } from "./page-identity";
import { fileNamer } from "./page-paths";
import { markedSources } from "./provenance";
import { applyPlan, type WriteContext } from "../write/apply";
import { SourceRegistry, type SourceEntry } from "./source-registry";
import { existsApart } from "./spelling-twins";

export interface MovedNote {
  /** Former paths of the note whose sections and `sources` entries are its own. */
  readonly formerPaths: readonly string[];
  /** Registry entries to forget: the note is recorded under its path now. */
  readonly movedFrom: readonly string[];
  /** Pages those entries list, which the plan reads to revise or retract the note's part there. */
  readonly pages: readonly string[];
}

export const NOT_MOVED: MovedNote = { formerPaths: [], movedFrom: [], pages: [] };

const fileKey = (path: string) => nameKey(path.slice(path.lastIndexOf("/") + 1));

/** The entry's former paths after a move from `movedFrom` to `notePath` (a change of case alone is none). */
export function formerAfterMove(entry: SourceEntry, movedFrom: string, notePath: string): string[] {
  const former = [...(entry.formerPaths ?? []), movedFrom];
  return former.filter((p, i) => sourceKey(p) !== sourceKey(notePath) && former.findIndex((q) => sourceKey(q) === sourceKey(p)) === i);
}

/**
 * Records a note's move in the registry, by a run that changes no file (under the write lock,
 * journaled, no history record): its entry goes to its new path and keeps the old one in
 * `formerPaths`. Nothing happens when no entry is under the old path, or — unless `proven` (the
 * note's content matched the old entry) — one is under the new path already: the note was ingested
 * there since a rename was reported, and that entry is the newer truth.
 */
export async function recordMove(
  vault: VaultPort,
  write: WriteContext,
  move: { readonly from: string; readonly to: string; readonly proven?: boolean; readonly now?: () => number },
): Promise<boolean> {
  const registry = new SourceRegistry(write.store);
  const entry = await registry.entry(move.from);
  if (!entry || move.from.normalize("NFC") === move.to.normalize("NFC")) return false;
  if (!move.proven && (await registry.entry(move.to))) return false;
  const state = await registry.recordChange(move.to, { ...entry, formerPaths: formerAfterMove(entry, move.from, move.to) }, move.from);
  const label = move.to.slice(move.to.lastIndexOf("/") + 1).replace(/\.md$/i, "");
  await applyPlan(vault, [], { ...write, operation: "ingest", label, wikiFolder: entry.wikiFolder, state, ...(move.now ? { now: move.now } : {}) });
  return true;
}

export interface MoveQuery {
  readonly registry: SourceRegistry;
  readonly notePath: string;
  readonly wikiFolder: string;
  /** The note's own entry, if it has one. */
  readonly own: SourceEntry | null;
  /** The pages the plan considers (their bodies name the sources they hold). */
  readonly pages: PageRegistry;
  /** The pages the note yields now (titles and aliases), the evidence a file-name guess needs. */
  readonly yielded: readonly WikiPage[];
  /** Is there a file at this path other than the note (spelling-twins.ts)? */
  readonly exists: (path: string) => Promise<boolean>;
}

/** Does the note yield again a page that holds a section of `path` (by title or alias)? */
function yieldsPageOf(path: string, pages: PageRegistry, yielded: readonly WikiPage[]): boolean {
  const names = new Set(yielded.flatMap((p) => [p.title, ...(p.aliases ?? [])]).map(titleKey));
  return pages.records.some(
    (r) => markedSources(r.body).some((s) => s.normalize("NFC") === path) && [r.title, ...r.aliases].some((name) => names.has(titleKey(name))),
  );
}

export async function findMovedNote(query: MoveQuery): Promise<MovedNote> {
  const { registry, notePath, wikiFolder, own, exists } = query;
  const here = notePath.normalize("NFC");
  const cited = new Set(query.pages.records.flatMap((r) => markedSources(r.body)).map((s) => s.normalize("NFC")));
  const ownKeys = new Set([here, ...(own?.formerPaths ?? [])].map(sourceKey));
  // An entry whose pages cite neither its path nor a former one is left from a note that moved on
  // (and came back here since): the note is looked for as one without an entry.
  if (own && (own.pages.length === 0 || [...cited].some((s) => ownKeys.has(sourceKey(s))))) {
    // A note created since at an old path is another note: its sections are its own.
    const formerPaths: string[] = [];
    for (const path of own.formerPaths ?? []) if (!(await exists(path))) formerPaths.push(path);
    return { ...NOT_MOVED, formerPaths };
  }
  const respelled: string[] = [];
  const moved: string[] = [];
  for (const path of cited) {
    if (path === here) continue;
    const sameNote = sourceKey(path) === sourceKey(here);
    if (!sameNote && fileKey(path) !== fileKey(here)) continue;
    const entry = await registry.entry(path);
    if (entry && entry.wikiFolder !== wikiFolder) continue;
    if (await exists(path)) continue;
    // A file name alone proves nothing (Untitled.md, README.md, daily notes repeat across folders):
    // the note must yield again a page that the note of that path wrote, else it is another note
    // and that note's sections stay. A path differing only in case is this very file renamed.
    if (sameNote) {
      if (entry) respelled.push(path);
    } else if (yieldsPageOf(path, query.pages, query.yielded)) moved.push(path);
  }
  const from = [...respelled, ...(moved.length === 1 ? moved : [])];
  if (from.length === 0) return NOT_MOVED;
  const entries = (await Promise.all(from.map((p) => registry.entry(p)))).filter((e): e is SourceEntry => e !== null);
  return {
    formerPaths: [...from, ...entries.flatMap((e) => e.formerPaths ?? [])],
    movedFrom: from,
    pages: [...new Set(entries.flatMap((e) => e.pages))],
  };
}

/** What the plan of one ingest reads of the wiki: its pages, and the note's former life if it moved. */
export interface PlanInputs {
  readonly pages: PageRegistry;
  readonly moved: MovedNote;
}

export interface PlanInputsQuery {
  readonly vault: VaultPort;
  /** Null without state (nothing is known of earlier ingests). */
  readonly registry: SourceRegistry | null;
  readonly notePath: string;
  readonly wikiFolder: string;
  /** The pages the note yields now. */
  readonly yielded: readonly WikiPage[];
  /** Every wiki page, when the index does not answer. */
  readonly pagePaths: readonly string[];
  /** With the index: retrieval's shortlist and the wiki pages with a file name. */
  readonly index?: { readonly shortlist: readonly string[]; readonly wikiNamed: (name: string) => readonly string[] };
}

/**
 * The pages the plan considers. Without the index, every wiki page. With it, the retrieval
 * shortlist (pages about the same subject), the pages whose file name is a new page's title or
 * alias, and the pages the note yielded last time, left out at review included (so those it no
 * longer yields lose its part), under its former path too when it moved.
 */
export async function planInputs(query: PlanInputsQuery): Promise<PlanInputs> {
  const { vault, registry, notePath, index } = query;
  const own = registry ? await registry.entry(notePath) : null;
  let pages: PageRegistry;
  if (index) {
    // Pages left out at review still hold the note's earlier section: they are the note's too.
    const paths = new Set([...index.shortlist, ...(own?.pages ?? []), ...(own?.leftOut ?? [])]);
    for (const page of query.yielded) for (const name of [page.title, ...(page.aliases ?? [])]) for (const p of index.wikiNamed(fileNamer(name)(""))) paths.add(p);
    pages = await findPagesById(vault, [...paths]);
  } else pages = await findPagesById(vault, query.pagePaths);
  if (!registry) return { pages, moved: NOT_MOVED };
  const exists = (path: string) => existsApart(vault, path, notePath);
  const moved = await findMovedNote({ registry, notePath, wikiFolder: query.wikiFolder, own, pages, yielded: query.yielded, exists });
  const known = new Set(pages.records.map((r) => r.path));
  const missing = moved.pages.filter((p) => !known.has(p));
  if (missing.length === 0) return { pages, moved };
  return { pages: registryOf([...pages.records, ...(await findPagesById(vault, missing)).records]), moved };
}
