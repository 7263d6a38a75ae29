/**
 * Before a page is created, the page that already exists for the same thing is looked for: by
 * title (cleaned, NFC, case-folded: `titleKey`), then by `aliases` (the existing page's and the ones the model gave the new
 * page), then on a similarity shortlist that a `confirm` step accepts or rejects. A match found by
 * alias or similarity makes the new title an alias of the existing page instead of a second page.
 *
 * Candidates are the wiki's pages today (the registry); the retrieval index can pass a better
 * shortlist to the same function later.
 */
import { plainText } from "../core/plain-text";
import type { WikiPage } from "../core/schemas";
import type { PageRecord } from "./identity";
import { titleKey } from "./page-identity";

export type MatchReason = "title" | "alias" | "similar";

export interface ExistingMatch {
  readonly record: PageRecord;
  readonly reason: MatchReason;
}

export interface Similarity {
  /** 0..1: character-bigram overlap of the titles, 1 when they differ only by accents or plurals. */
  readonly title: number;
  /** 0..1: overlap of the words of the two bodies. */
  readonly content: number;
}

/** Says whether a shortlisted candidate is the same thing as the new page. */
export type ConfirmMatch = (page: WikiPage, candidate: PageRecord, similarity: Similarity) => boolean | Promise<boolean>;

/**
 * The confirm step used for every provider today (no model call): nearly the same title, or a
 * close title backed by shared content. Conservative on purpose — a missed match leaves a
 * duplicate that lint can report, a wrong one mixes two subjects on one page.
 */
export const thresholdConfirm: ConfirmMatch = (_page, _candidate, s) => s.title >= 0.95 || (s.title >= 0.85 && s.content >= 0.3);

/** Accents, plural endings, case and punctuation do not make a different subject. */
function looseTitle(title: string): string {
  return titleKey(title)
    .replace(/[\s_\-–—.,:;!?'"’“”()[\]{}/\\|*]+/gu, " ")
    .trim()
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .split(" ")
    .map((w) => (w.length > 3 ? w.replace(/(?:es|s)$/u, "") : w))
    .join(" ");
}

function bigrams(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < text.length - 1; i++) {
    const gram = text.slice(i, i + 2);
    out.set(gram, (out.get(gram) ?? 0) + 1);
  }
  return out;
}

function dice(a: string, b: string): number {
  if (a === b) return 1;
  const x = bigrams(a);
  const y = bigrams(b);
  let shared = 0;
  for (const [gram, n] of x) shared += Math.min(n, y.get(gram) ?? 0);
  const total = a.length - 1 + (b.length - 1);
  return total > 0 ? (2 * shared) / total : 0;
}

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
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared += 1;
  return shared / (a.size + b.size - shared);
}

export function similarity(page: WikiPage, candidate: PageRecord): Similarity {
  const a = looseTitle(page.title);
  const b = looseTitle(candidate.title);
  // "Python 2" and "Python 3" look alike and are different things.
  const digits = (t: string) => t.replace(/\D+/g, " ").trim();
  const title = digits(a) === digits(b) ? dice(a, b) : 0;
  return { title, content: jaccard(wordsOf(page, page.content), wordsOf(candidate, candidate.body)) };
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

export async function findExistingPage(page: WikiPage, candidates: readonly PageRecord[], confirm: ConfirmMatch): Promise<ExistingMatch | null> {
  const title = titleKey(page.title);
  const byTitle = preferred(page, candidates.filter((c) => titleKey(c.title) === title));
  if (byTitle) return { record: byTitle, reason: "title" };

  const names = new Set([title, ...(page.aliases ?? []).map(titleKey)].filter(Boolean));
  const byAlias = preferred(
    page,
    candidates.filter((c) => c.aliases.some((a) => names.has(titleKey(a))) || names.has(titleKey(c.title))),
  );
  if (byAlias) return { record: byAlias, reason: "alias" };

  const shortlist = candidates
    .map((record) => ({ record, s: similarity(page, record) }))
    .filter(({ s }) => s.title >= 0.5 || s.content >= 0.5)
    .sort((x, y) => y.s.title + y.s.content - (x.s.title + x.s.content) || x.record.path.localeCompare(y.record.path))
    .slice(0, SHORTLIST);
  for (const { record, s } of shortlist) {
    if (await confirm(page, record, s)) return { record, reason: "similar" };
  }
  return null;
}
