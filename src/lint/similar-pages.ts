/**
 * The duplicate check by similarity, part of the exact checks: pages whose words are nearly the same
 * (see near-duplicates.ts) are `duplicate` findings with the merge fix, found from the wiki's pages
 * alone — no search index is needed, so the plugin and `synapse lint` find the same pairs.
 * With the model checks, pairs of pages that are alike without being duplicates are handed on too:
 * closely related pages are where contradictions live.
 */
import { distinction } from "../wiki/distinguishing-marks";
import { basenameOf } from "../wiki/page-paths";
import { DUPLICATE_SIMILARITY, similarTexts, type PassOptions } from "./near-duplicates";
import type { PageRecord, WikiSnapshot } from "./snapshot";
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

/** Pages compared: valid frontmatter and no `synapse_lint_ignore: [duplicate]`. */
function compared(page: PageRecord): boolean {
  return !page.frontmatterInvalid && !page.ignored.has("duplicate");
}

function duplicateFinding(a: PageRecord, b: PageRecord, score: number): Finding {
  // The plainer name stays, as for the exact duplicates.
  const [keep, remove] = basenameOf(a.path).length <= basenameOf(b.path).length ? [a, b] : [b, a];
  return {
    check: "duplicate",
    severity: "warning",
    page: keep.path,
    message: `"${keep.title}" and ${remove.path} say nearly the same thing (${Math.round(score * 100)}% alike in their words).`,
    fixes: [{ kind: "merge-duplicates", label: `Merge ${remove.path} into this page`, safe: false, params: { keep: keep.path, remove: remove.path } }],
  };
}

export async function similarPages(snapshot: WikiSnapshot, options: PassOptions & { readonly alike?: boolean } = {}): Promise<SimilarPages> {
  const pages = snapshot.pages.filter(compared);
  const threshold = options.alike ? ALIKE_SIMILARITY : DUPLICATE_SIMILARITY;
  const pairs = await similarTexts(pages.map(comparedText), threshold, { ...options, keep: (text) => text.words >= MIN_WORDS });
  const duplicates: Finding[] = [];
  const alike: [string, string][] = [];
  for (const { a, b, score } of pairs) {
    const [x, y] = [pages[a], pages[b]];
    if (!x || !y) continue;
    if (score >= DUPLICATE_SIMILARITY && !distinctSubjects(x, y)) duplicates.push(duplicateFinding(x, y, score));
    if (options.alike) alike.push([x.path, y.path].sort() as [string, string]);
  }
  return { duplicates, alike };
}
