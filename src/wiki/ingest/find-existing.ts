/**
 * Before a page is created, the page that already exists for the same thing is looked for: by
 * title (cleaned, NFC, case-folded: `titleKey`), then by `aliases` (the existing page's and the ones the model gave the new
 * page), then on a similarity shortlist that a `confirm` step accepts or rejects. A match found by
 * alias or similarity makes the new title an alias of the existing page instead of a second page,
 * and says why (`because`), so the review can show it and the user refuse it.
 *
 * Titles that differ in a distinguishing mark (a number, a letter, a version, an element…:
 * wiki/distinguishing-marks.ts) are never on the shortlist, whatever their similarity: no threshold or
 * model is asked about them. A pair the user refused (`apart`) is neither matched by alias nor
 * by similarity again.
 *
 * Candidates are the wiki's pages today (the registry); the retrieval index can pass a better
 * shortlist to the same function later.
 */
import { boundedMemo } from "../../core/bounded-memo";
import { plainText } from "../../core/plain-text";
import type { WikiPage } from "../../core/schemas";
import { describeDistinction, distinction } from "../distinguishing-marks";
import type { PageRecord } from "../identity";
import { titleKey } from "../page-identity";
import { looselySame, TITLE_CACHE_LIMIT, titleMayReach, titleSimilarity } from "./title-similarity";

export { looselySame, looseTitle } from "./title-similarity";

export type MatchReason = "title" | "alias" | "similar";

export interface ExistingMatch {
  readonly record: PageRecord;
  readonly reason: MatchReason;
  /** Why the new page is this one, as the end of a sentence: "the titles differ only in accents, case or plural". */
  readonly because: string;
}

export interface Similarity {
  /** 0..1: character-bigram overlap of the titles, 1 when they differ only by accents or plurals. */
  readonly title: number;
  /** 0..1: overlap of the words of the two bodies. */
  readonly content: number;
}

/** A confirm step's answer with its reason (the end of a sentence: "the model judged …"). */
export interface Confirmation {
  readonly same: boolean;
  readonly reason: string;
}

/** Says whether a shortlisted candidate is the same thing as the new page. */
export type ConfirmMatch = (page: WikiPage, candidate: PageRecord, similarity: Similarity) => boolean | Confirmation | Promise<boolean | Confirmation>;

/**
 * The confirm step without a model (the Offline backend, and any backend that cannot answer a
 * structured question): nearly the same title, or a close title backed by shared content.
 * Conservative on purpose — a missed match leaves a duplicate that lint can report, a wrong one
 * mixes two subjects on one page.
 */
export const thresholdConfirm: ConfirmMatch = (_page, _candidate, s) => s.title >= 0.95 || (s.title >= 0.85 && s.content >= 0.3);

function words(markdown: string): Set<string> {
  return new Set(plainText(markdown).toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3));
}

/** Words computed once per page and per record: every page of a batch is compared with every candidate. */
const knownWords = new WeakMap<object, Set<string>>();
function wordsOf(item: object, markdown: string): Set<string> {
  let found = knownWords.get(item);
  if (!found) {
    found = words(markdown);
    knownWords.set(item, found);
  }
  return found;
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  return jaccardReaching(a, b, 0) ?? 0;
}

/**
 * The Jaccard index of two sets, or null as soon as it cannot reach `threshold` any more (the
 * words left to count could not lift it there): most pairs of pages share little, and stop early.
 */
function jaccardReaching(a: ReadonlySet<string>, b: ReadonlySet<string>, threshold: number): number | null {
  if (a.size === 0 || b.size === 0) return threshold > 0 ? null : 0;
  // No closure here: this runs for every pair of an ingest's page and a wiki page.
  const small = a.size <= b.size ? a : b;
  const large = small === a ? b : a;
  const sizes = a.size + b.size;
  let shared = 0;
  let left = small.size;
  for (const w of small) {
    if (large.has(w)) shared += 1;
    left -= 1;
    if (threshold > 0 && (shared + left) / (sizes - shared - left) < threshold) return null;
  }
  return shared / (sizes - shared);
}

const titleKeyOf = boundedMemo(titleKey, TITLE_CACHE_LIMIT);

export function similarity(page: WikiPage, candidate: PageRecord): Similarity {
  return { title: titleSimilarity(page.title, candidate.title), content: jaccard(wordsOf(page, page.content), wordsOf(candidate, candidate.body)) };
}

/** How close a candidate must come, by title or by content, to be shortlisted. */
const SHORTLISTED = 0.5;

/**
 * The candidate's similarity when it can reach the shortlist, else null. Every page of an ingest
 * meets every page of the wiki here, so the word overlap is only counted when it could matter: a
 * Jaccard index is at most the smaller set's size over the larger's, and a Dice overlap at most
 * twice the shorter title's bigrams over both's, so pairs whose bounds both fall short are left
 * out uncounted — the shortlist is the one `similarity` would give.
 */
function shortlistable(page: WikiPage, mine: ReadonlySet<string>, candidate: PageRecord): Similarity | null {
  const theirs = wordsOf(candidate, candidate.body);
  const contentMayReach = Math.min(mine.size, theirs.size) / Math.max(mine.size, theirs.size, 1) >= SHORTLISTED;
  if (!contentMayReach && !titleMayReach(page.title, candidate.title, SHORTLISTED)) return null;
  // A shortlisted pair's figures are exact: the confirm step and the order read them both.
  const title = titleSimilarity(page.title, candidate.title);
  const content = jaccardReaching(mine, theirs, title >= SHORTLISTED ? 0 : SHORTLISTED);
  return content === null ? null : { title, content };
}

/** Same type first, then pages Synapse already owns, then by path, so the choice is stable. */
function preferred(page: WikiPage, records: readonly PageRecord[]): PageRecord | undefined {
  return [...records].sort(
    (x, y) =>
      Number(y.type === page.type) - Number(x.type === page.type) ||
      Number(y.id !== null) - Number(x.id !== null) ||
      x.path.localeCompare(y.path),
  )[0];
}

const SHORTLIST = 5;

export interface FindOptions {
  /** Pairs the user kept apart at review: the new page's title and a candidate that is never its page by alias or similarity. */
  readonly apart?: (title: string, candidate: PageRecord) => boolean;
}

function similarBecause(page: WikiPage, record: PageRecord, verdict: boolean | Confirmation): string {
  if (typeof verdict !== "boolean" && verdict.reason) return verdict.reason;
  return looselySame(page.title, record.title)
    ? "the titles differ only in accents, case, plural, spacing or punctuation"
    : "the titles are nearly the same and the pages say much the same";
}

/**
 * Why two titles are never one page by similarity, or null when they may be: a distinguishing
 * mark (wiki/distinguishing-marks.ts).
 */
export function keptApartBecause(first: string, second: string): string | null {
  const found = distinction(first, second);
  return found ? describeDistinction(first, second, found) : null;
}

/** The existing page with the new page's title, or one of its names as an alias (no similarity, no confirm step). */
export function findExactPage(page: WikiPage, candidates: readonly PageRecord[], options: FindOptions = {}): ExistingMatch | null {
  const title = titleKeyOf(page.title);
  const byTitle = preferred(page, candidates.filter((c) => titleKeyOf(c.title) === title));
  if (byTitle) return { record: byTitle, reason: "title", because: "it has the same title" };

  const names = new Set([title, ...(page.aliases ?? []).map(titleKeyOf)].filter(Boolean));
  // The few named alike, then those the user did not keep apart from this page (both filters).
  const named = candidates.filter((c) => c.aliases.some((a) => names.has(titleKeyOf(a))) || names.has(titleKeyOf(c.title)));
  const byAlias = preferred(page, options.apart ? named.filter((c) => !options.apart?.(page.title, c)) : named);
  if (!byAlias) return null;
  const known = byAlias.aliases.find((a) => titleKeyOf(a) === title);
  const because = known ? `"${page.title}" is already one of its aliases` : `the model gave "${byAlias.title}" as another name of "${page.title}"`;
  return { record: byAlias, reason: "alias", because };
}

export async function findExistingPage(page: WikiPage, candidates: readonly PageRecord[], confirm: ConfirmMatch, options: FindOptions = {}): Promise<ExistingMatch | null> {
  const exact = findExactPage(page, candidates, options);
  if (exact) return exact;

  // Similarity first, the distinguishing marks only for the few close enough to be shortlisted:
  // both are filters, so the shortlist is the same, and marks are the dearer of the two to compare.
  // A plain loop: every page of the wiki passes here for every page of the ingest.
  const mine = wordsOf(page, page.content);
  const close: { record: PageRecord; s: Similarity }[] = [];
  for (const record of candidates) {
    const s = shortlistable(page, mine, record);
    if (s && !options.apart?.(page.title, record)) close.push({ record, s });
  }
  const shortlist = close
    .filter(({ record }) => distinction(page.title, record.title) === null)
    .sort((x, y) => y.s.title + y.s.content - (x.s.title + x.s.content) || x.record.path.localeCompare(y.record.path))
    .slice(0, SHORTLIST);
  for (const { record, s } of shortlist) {
    const verdict = await confirm(page, record, s);
    if (verdict === true || (typeof verdict !== "boolean" && verdict.same)) return { record, reason: "similar", because: similarBecause(page, record, verdict) };
  }
  return null;
}
