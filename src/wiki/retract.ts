/**
 * Revision's other half: when a changed note no longer yields a page it once contributed to, its
 * part of that page goes — the claims the note no longer makes leave the wiki. Only the note's own
 * unedited sections are removed. The user's text, other notes' sections and a section of this
 * note that the user edited stay exactly as they are (an edited section keeps the note in
 * `sources`, since the page still quotes it). A page left with nothing on it is kept, empty and
 * without that source, rather than deleted: other pages may link to it, and lint lists it as a
 * page no source supports, for the user to decide.
 */
import { splitFrontmatter } from "../core/markdown";
import { sourceKey } from "../core/sources";
import { formerKeys, respellSections, respellSources } from "./former-sources";
import { isLocked, type PageRecord } from "./identity";
import { composeMarkdown } from "./page-markdown";
import { isUnedited, parseBody, renderBody, type Segment } from "./provenance";

export interface RetractResult {
  readonly content: string;
  readonly action: "updated" | "unchanged";
  /** A sentence for the run result. */
  readonly detail?: string;
}

/** The note's keys: its path's and, for a moved note, its former paths' (former-sources.ts). */
function keysOf(source: string, former: readonly string[]): ReadonlySet<string> {
  return new Set([sourceKey(source), ...formerKeys(source, former)]);
}

function isSourceSection(segment: Segment, keys: ReadonlySet<string>): boolean {
  return segment.kind === "section" && keys.has(sourceKey(segment.source));
}

/** Does this page body hold a section drawn from `source` (or from one of its former paths)? */
export function hasSectionFrom(body: string, source: string, former: readonly string[] = []): boolean {
  const keys = keysOf(source, former);
  return parseBody(body).some((s) => isSourceSection(s, keys));
}

/**
 * `hasSectionFrom` for every page of the wiki at once: an ingest asks it of each page, so the note's
 * keys are computed once, and each page's section sources once per record (a record stands for one
 * text of its page: identity.ts keeps it while the page is unchanged).
 */
export function sectionsFrom(source: string, former: readonly string[] = []): (record: PageRecord) => boolean {
  const keys = keysOf(source, former);
  return (record) => {
    for (const key of sectionKeysOf(record)) if (keys.has(key)) return true;
    return false;
  };
}

const sectionKeys = new WeakMap<PageRecord, ReadonlySet<string>>();

function sectionKeysOf(record: PageRecord): ReadonlySet<string> {
  let keys = sectionKeys.get(record);
  if (!keys) {
    keys = new Set(parseBody(record.body).flatMap((s) => (s.kind === "section" ? [sourceKey(s.source)] : [])));
    sectionKeys.set(record, keys);
  }
  return keys;
}

/**
 * Removes `source`'s unedited sections from a page file; see the file comment for what stays.
 * `former`: the note's paths before a move, whose sections are the note's too.
 */
export function retractSource(current: string, source: string, sourceTitle: string, date: string, former: readonly string[] = []): RetractResult {
  const unchanged: RetractResult = { content: current, action: "unchanged" };
  const { frontmatter, body, frontmatterInvalid } = splitFrontmatter(current);
  // YAML we cannot read is the user's to fix; a locked page is never changed.
  if (frontmatterInvalid || isLocked(frontmatter)) return unchanged;
  const keys = keysOf(source, former);
  const segments = parseBody(body);
  const left = segments.filter((s) => !(isSourceSection(s, keys) && s.kind === "section" && isUnedited(s)));
  if (left.length === segments.length) return unchanged;
  // An edited section left behind is the moved note's: it names the note where it is now.
  const { segments: kept } = respellSections(left, formerKeys(source, former), source);
  const editedLeft = kept.some((s) => isSourceSection(s, keys));
  const name = sourceTitle || source;
  const next: Record<string, unknown> = { ...frontmatter, updated: date };
  if (editedLeft) {
    if (frontmatter.sources !== undefined) next.sources = respellSources(frontmatter.sources, formerKeys(source, former), source);
  } else {
    const sources = frontmatter.sources;
    if (Array.isArray(sources)) next.sources = sources.filter((s) => typeof s !== "string" || !keys.has(sourceKey(s)));
    else if (typeof sources === "string") next.sources = sources.split(",").map((s) => s.trim()).filter((s) => s && !keys.has(sourceKey(s)));
  }
  const detail = editedLeft
    ? `${name} no longer yields this page; its part was removed, and your edit of it kept.`
    : kept.length === 0
      ? `${name} no longer yields this page; its part was removed and nothing else is left on it, so no source supports it now.`
      : `${name} no longer yields this page; its part was removed.`;
  return { content: composeMarkdown(next, renderBody(kept)), action: "updated", detail };
}
