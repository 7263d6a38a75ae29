/**
 * The duplicate check by similarity, part of the exact checks: pages whose words are nearly the same
 * (see near-duplicates.ts) are `duplicate` findings with the merge fix, found from the wiki's pages
 * alone — no search index is needed, so the plugin and `synapse lint` find the same pairs.
 * With the model checks, pairs of pages that are alike without being duplicates are handed on too:
 * closely related pages are where contradictions live.
 */
import { sourceKey } from "../core/sources";
import { distinction } from "../wiki/distinguishing-marks";
import { basenameOf } from "../wiki/page-paths";
import { isSynapseText } from "./exact-checks";
import { DUPLICATE_SIMILARITY, similarTexts, type PassOptions } from "./near-duplicates";
import type { PageRecord, WikiSnapshot } from "./snapshot";
import { pageNamer, type PageNamer } from "./page-names";
import { comparedText } from "./term-vectors";
import type { Finding } from "./types";

/**
 * Pages this alike share a subject: of the 14,878 pairs of the Obsidian Help vault's English pages,
 * 46 reach 0.4, all of them pages of one feature (the Sync pages among themselves, the importers
 * among themselves), none 0.6.
 */
export const ALIKE_SIMILARITY = 0.4;

export interface SimilarPages {
  /** `duplicate` findings, the plainer name kept. */
  readonly duplicates: Finding[];
  /** With `alike`: pairs of page paths (in path order) at or above ALIKE_SIMILARITY, duplicates included. */
  readonly alike: [string, string][];
}

/**
 * A page of fewer words is not compared: its words are too few to tell a second page on its
 * subject from a page that quotes the same sentence. The Offline backend's entity pages are one
 * quoted sentence each, so two entities named in the same sentence get pages that differ only by
 * their titles (97% alike) without being one subject.
 */
export const MIN_WORDS = 40;

/**
 * Titles that differ in a distinguishing mark (*World War I* / *II*, *Vitamin A* / *B*:
 * distinguishing-marks.ts) are different subjects however alike their words are: pages about two
 * members of one family share most of their vocabulary, and merging them would put both on one page.
 * They stay a related pair for the model checks, where contradictions between them are looked for.
 */
export function distinctSubjects(a: Pick<PageRecord, "title">, b: Pick<PageRecord, "title">): boolean {
  return distinction(a.title, b.title) !== null;
}

/**
 * Two pages one note's ingest wrote, neither edited since, are not near-duplicates of each other,
 * however alike their words: an ingest writes one page per subject the note names (the planner
 * gives each its own title, and two pages for one name are the exact duplicate check's), and all
 * of them draw on the same few sentences of that note. The Offline backend's pages quote them
 * word for word (its source page and the entity pages of one note run 75–97% alike), and a model's
 * pages of a short note come close; pairing them asks the user to merge what Synapse split on
 * purpose. Pages from different notes, and a page the user has edited, are compared as ever, and
 * the pair stays a related pair for the model checks.
 */
export function splitByDesign(a: PageRecord, b: PageRecord): boolean {
  // One page's notes all among the other's: a source page that later took in a second note's part
  // still came from the note its entity pages came from.
  const [fewer, more] = a.sources.length <= b.sources.length ? [a, b] : [b, a];
  const keys = new Set(more.sources.map(sourceKey));
  return fewer.sources.length > 0 && fewer.sources.every((s) => keys.has(sourceKey(s))) && isSynapseText(a) && isSynapseText(b);
}

/** Pages compared: valid frontmatter and no `synapse_lint_ignore: [duplicate]`. */
function compared(page: PageRecord): boolean {
  return !page.frontmatterInvalid && !page.ignored.has("duplicate");
}

function duplicateFinding(a: PageRecord, b: PageRecord, score: number, name: PageNamer): Finding {
  // The plainer name stays, as for the exact duplicates.
  const [keep, remove] = basenameOf(a.path).length <= basenameOf(b.path).length ? [a, b] : [b, a];
  return {
    check: "duplicate",
    severity: "warning",
    page: keep.path,
    message: `${name(keep.path)} and ${name(remove.path)} say nearly the same thing (${Math.round(score * 100)}% alike in their words).`,
    fixes: [{ kind: "merge-duplicates", label: `Merge ${name(remove.path)} into this page`, safe: false, params: { keep: keep.path, remove: remove.path } }],
  };
}

export async function similarPages(snapshot: WikiSnapshot, options: PassOptions & { readonly alike?: boolean } = {}): Promise<SimilarPages> {
  const pages = snapshot.pages.filter(compared);
  const threshold = options.alike ? ALIKE_SIMILARITY : DUPLICATE_SIMILARITY;
  const pairs = await similarTexts(pages, comparedText, threshold, { ...options, keep: (text) => text.words >= MIN_WORDS });
  const duplicates: Finding[] = [];
  const alike: [string, string][] = [];
  for (const { a, b, score } of pairs) {
    const [x, y] = [pages[a], pages[b]];
    if (!x || !y) continue;
    if (score >= DUPLICATE_SIMILARITY && !distinctSubjects(x, y) && !splitByDesign(x, y)) duplicates.push(duplicateFinding(x, y, score, pageNamer(snapshot)));
    if (options.alike) alike.push([x.path, y.path].sort() as [string, string]);
  }
  return { duplicates, alike };
}
