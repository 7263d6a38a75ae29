/**
 * The pairs of pages the model checks look at: never the whole wiki in one prompt, only pages that
 * have something to disagree about — drawn from the same source note, both linking to the same
 * entity page, or alike in their words. Strongest first (most shared sources and entities), so a budget that runs out
 * leaves the weakest pairs unchecked.
 */
import { sourceKey } from "../core/sources";
import { isPageType } from "../wiki/page-paths";
import { Resolver, type PageRecord, type WikiSnapshot } from "./snapshot";

export interface PagePair {
  /** The two pages, in path order. */
  readonly a: PageRecord;
  readonly b: PageRecord;
  /** Shared sources and entity pages, for the reason shown with a finding. */
  readonly shared: readonly string[];
}

/** Pages worth sending: valid frontmatter, some text, and no `synapse_lint_ignore: [model-checks]`. */
function checkable(page: PageRecord): boolean {
  return !page.frontmatterInvalid && isPageType(page.type) && /[\p{L}\p{N}]/u.test(page.body) && !page.ignored.has("model-checks");
}

/**
 * A group larger than this (a note that yielded hundreds of pages, an entity every page links to)
 * says little about any one pair and would make n² of them: its pairs are not drawn (other groups
 * and word similarity still pair its pages), and it is reported.
 */
export const GROUP_LIMIT = 40;
/** At most this many pairs are planned, strongest first: the model checks never grow with n². */
export const PAIR_LIMIT = 2_000;

export interface Candidates {
  /** Strongest first, at most PAIR_LIMIT. */
  readonly pairs: readonly PagePair[];
  /** Groups too large to pair ("source notes/x.md (120 pages)"). */
  readonly broadGroups: readonly string[];
  /** Pairs beyond PAIR_LIMIT, left out (the weakest). */
  readonly beyondLimit: number;
}

/**
 * `similar`: pairs of page paths alike in their words (see similar-pages.ts), added to the pairs
 * the shared sources and entities make.
 */
export function candidatePairs(snapshot: WikiSnapshot, shareable: ReadonlySet<string>, similar: readonly (readonly [string, string])[] = []): PagePair[] {
  return [...boundedPairs(snapshot, shareable, similar).pairs];
}

export function boundedPairs(snapshot: WikiSnapshot, shareable: ReadonlySet<string>, similar: readonly (readonly [string, string])[] = []): Candidates {
  const resolver = Resolver.of(snapshot);
  const pages = snapshot.pages.filter((p) => checkable(p) && shareable.has(p.path));
  const byPath = new Map(snapshot.pages.map((p) => [p.path, p]));
  const groups = new Map<string, PageRecord[]>();
  const join = (key: string, page: PageRecord) => {
    const group = groups.get(key) ?? [];
    if (!group.includes(page)) group.push(page);
    groups.set(key, group);
  };
  for (const page of pages) {
    for (const source of page.sources) join(`source ${resolver.resolve(source) ?? sourceKey(source)}`, page);
    for (const link of page.links) {
      const target = resolver.resolve(link);
      if (target && target !== page.path && byPath.get(target)?.type === "entity") join(`entity ${target}`, page);
    }
  }
  for (const [x, y] of similar) {
    const a = pages.find((p) => p.path === x);
    const b = pages.find((p) => p.path === y);
    if (a && b && a !== b) groups.set(`similar ${[a.path, b.path].sort().join(" ~ ")}`, [a, b]);
  }
  const pairs = new Map<string, { a: PageRecord; b: PageRecord; shared: string[] }>();
  const broadGroups: string[] = [];
  for (const [key, group] of groups) {
    if (group.length > GROUP_LIMIT) {
      broadGroups.push(`${key} (${group.length} pages)`);
      continue;
    }
    for (let i = 0; i < group.length; i++) {
      for (let j = i + 1; j < group.length; j++) {
        const [a, b] = [group[i], group[j]].sort((x, y) => ((x?.path ?? "") < (y?.path ?? "") ? -1 : 1));
        if (!a || !b) continue;
        const id = `${a.path}\n${b.path}`;
        const known = pairs.get(id) ?? { a, b, shared: [] };
        known.shared.push(key.slice(key.indexOf(" ") + 1));
        pairs.set(id, known);
      }
    }
  }
  const sorted = [...pairs.values()].sort((x, y) => y.shared.length - x.shared.length || (x.a.path + x.b.path < y.a.path + y.b.path ? -1 : 1));
  return { pairs: sorted.slice(0, PAIR_LIMIT), broadGroups, beyondLimit: Math.max(0, sorted.length - PAIR_LIMIT) };
}
