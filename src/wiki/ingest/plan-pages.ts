/**
 * Planning turns validated pages into vault changes without touching the vault: which existing page
 * each one is (by id, title, alias or confirmed similarity, wherever the user moved it), what the
 * ingested note's material does to that page (see triage.ts), where a new page goes, and how links
 * between the new pages must be spelled once titles became file names.
 */
import { replaceOutsideCode } from "../../core/code-spans";
import { wikilinks } from "../../core/text-scan";
import type { PageType, WikiPage } from "../../core/schemas";
import type { VaultPort } from "../../vault/vault-port";
import { canonNoteFor, linkedSentence, noteLink, type CanonNotes, type LinkedNote } from "./canon-notes";
import type { Contradiction } from "../contradictions";
import { findExactPage, findExistingPage, thresholdConfirm, type ConfirmMatch, type ExistingMatch } from "./find-existing";
import { findPagesById, newPageId, recordOf, type PageRecord, type PageRegistry } from "../identity";
import { renderNewPage } from "../page-markdown";
import { cleanTitle } from "../../core/unicode";
import { titleKey } from "../page-identity";
import { basenameOf } from "../page-paths";
import { PageTargets } from "./page-targets";
import type { MatchVerdicts } from "./match-verdicts";
import type { PageMatch, PlannedChange } from "../../write/planned-change";
import { renderBody } from "../provenance";
import { retractSource, sectionsFrom } from "../retract";
import { triage } from "./triage";
import { updateExisting, type UpdateResult } from "./update-page";

/** A page's planned change, with what the run result reports about it. */
export interface PlannedPage extends PlannedChange {
  /** The page's `synapse_id`. */
  readonly id?: string;
  /** The page is locked (`synapse: locked`): what Synapse would have added, which it did not. */
  readonly locked?: string;
  /** A sentence for the run result, e.g. that the user's edit of a section was kept. */
  readonly detail?: string;
  readonly contradictions?: readonly Contradiction[];
}

export type { PlannedChange } from "../../write/planned-change";

export interface PlanContext {
  readonly vault: VaultPort;
  readonly wikiFolder: string;
  /** Wiki pages that exist now (vault paths), from one listing of the wiki folder. */
  readonly existingPaths: readonly string[];
  /** The wiki pages with this file name, from the index; replaces `existingPaths` for naming new files when given. */
  readonly existingNamed?: (name: string) => readonly string[];
  /** Title of the ingested note, used in the heading of appended updates. */
  readonly sourceTitle: string;
  readonly sourcePath: string;
  /** ISO day, e.g. 2026-11-29. */
  readonly date: string;
  /** Does a note with this basename exist anywhere in the vault (wiki pages included)? */
  readonly noteExists?: (basename: string) => boolean;
  /** The wiki's pages by id; read from `existingPaths` when not given. */
  readonly registry?: PageRegistry;
  /** Accepts or rejects a similar page as the same subject; the threshold when not given. */
  readonly confirm?: ConfirmMatch;
  /** What is known about pairs of titles: a pair the user kept apart is never matched again. */
  readonly verdicts?: MatchVerdicts;
  /**
   * `pages` is everything the note yields now, so the note's sections on any other page are
   * removed (wiki/retract.ts). False when the pages are only those a run wrote (an agent's), where a
   * page left out says nothing about what the note yields.
   */
  readonly retractUnyielded?: boolean;
  /** Paths the note had before it was moved or renamed: sections under them are the note's (wiki/former-sources.ts). */
  readonly formerSources?: readonly string[];
  /** The user's notes, which a new page never duplicates (canon-notes.ts); none are looked at when not given. */
  readonly canon?: CanonNotes;
  /** Told of each new page a user note stood in for (`link`); a page written beside one (`page`) says so in its `detail`. */
  readonly onLinkedNote?: (linked: LinkedNote) => void;
}

/** Links whose text before any `|` is not empty. */
const aliasedOrPlainLinks = (text: string) => wikilinks(text, "|");

/**
 * Rewrites [[Title]] to [[File name|Title]] where a page's file name had to differ from its title.
 * A title may itself contain `#` ("C#"), so the longest prefix that names a page is the target and
 * the rest is the heading or block anchor.
 */
export function rewriteLinks(markdown: string, fileNames: ReadonlyMap<string, string>): string {
  // Links in code and escaped links are text: they are left as written.
  return replaceOutsideCode(markdown, aliasedOrPlainLinks, (match) => {
    const whole = markdown.slice(match.index, match.end);
    if (match.embed) return whole;
    const bar = match.inner.indexOf("|");
    const inner = bar < 0 ? match.inner : match.inner.slice(0, bar);
    const alias = bar < 0 ? undefined : match.inner.slice(bar);
    const cuts = [inner.length, ...[...inner.matchAll(/[#^]/g)].map((m) => m.index).reverse()];
    for (const cut of cuts) {
      const target = inner.slice(0, cut).trim();
      const name = fileNames.get(titleKey(target));
      if (!name) continue;
      if (name === target) return whole;
      return `[[${name}${inner.slice(cut)}${alias ?? `|${target}`}]]`;
    }
    return whole;
  });
}

/**
 * A page's update is a pure function of the text it is given: planned on the page as it was read,
 * applied on the page as it is under the lock. When the page has not changed in between, the
 * apply gets the planned result instead of merging the same text twice; any other text is merged anew.
 */
function lastOf<T>(update: (current: string) => T): (current: string) => T {
  let last: { readonly current: string; readonly result: T } | null = null;
  return (current) => {
    if (last?.current !== current) last = { current, result: update(current) };
    return last.result;
  };
}

interface Target {
  readonly page: WikiPage;
  readonly path: string;
  /** The existing page it is, or null for a new page. */
  readonly record: PageRecord | null;
  /** Names to add to the existing page's `aliases`. */
  readonly aliases: readonly string[];
  /** Why a page titled otherwise is this existing page. */
  readonly match?: PageMatch;
  /** The user's note on the same subject, which the new page links to. */
  readonly canonNote?: PageRecord;
}

function explained(page: WikiPage, match: ExistingMatch): PageMatch | undefined {
  if (match.reason === "title") return undefined;
  return {
    newTitle: page.title,
    existingTitle: match.record.title,
    reason: match.reason,
    sentence: `Added to "${match.record.title}" as an alias because ${match.because}.`,
  };
}

export async function planPages(pages: readonly WikiPage[], ctx: PlanContext): Promise<PlannedPage[]> {
  const registry = ctx.registry ?? (await findPagesById(ctx.vault, ctx.existingPaths));
  const confirm = ctx.confirm ?? thresholdConfirm;
  const { verdicts } = ctx;
  const apart = verdicts ? { apart: (title: string, candidate: PageRecord) => verdicts.keptApart(title, candidate.title) } : {};
  const targetsOf = new PageTargets(ctx);
  const claimed = new Set<string>();
  // Filtered again only after a claim: every page of the batch is matched against it.
  let open: readonly PageRecord[] | null = null;
  const unclaimed = () => (open ??= registry.records.filter((r) => !claimed.has(r.path)));
  const fileNames = new Map<string, string>();
  const batch: WikiPage[] = [];
  const seenTitles = new Set<string>();
  for (const page of pages) {
    // One line, no invisible characters: a title with a line break would split index.md entries.
    const title = cleanTitle(page.title);
    const key = titleKey(title);
    if (seenTitles.has(key)) continue; // one page per title and batch; the validator let both through
    seenTitles.add(key);
    batch.push({ ...page, title });
  }

  // Exact titles and aliases first, for the whole batch, so a page's own existing page is never
  // taken by another page of the batch that only looks similar to it.
  const matches = new Map<WikiPage, ExistingMatch>();
  for (const pass of ["exact", "similar"] as const) {
    for (const page of batch) {
      if (matches.has(page)) continue;
      const match = pass === "exact" ? findExactPage(page, unclaimed(), apart) : await findExistingPage(page, unclaimed(), confirm, apart);
      if (!match) continue;
      claimed.add(match.record.path);
      open = null;
      matches.set(page, match);
    }
  }

  const targets: Target[] = [];
  for (const page of batch) {
    const key = titleKey(page.title);
    const match = matches.get(page);
    if (match) {
      if (targetsOf.linkable(page.title)) fileNames.set(key, basenameOf(match.record.path));
      const aliases = match.reason === "title" ? (page.aliases ?? []) : [page.title, ...(page.aliases ?? [])];
      const why = explained(page, match);
      // A page written beside the user's note keeps its line to the note when it is ingested again.
      const canonNote = ctx.canon?.mode === "page" ? await canonNoteFor(page, ctx.canon, confirm, apart) : null;
      targets.push({ page, path: match.record.path, record: match.record, aliases, ...(why ? { match: why } : {}), ...(canonNote ? { canonNote } : {}) });
      continue;
    }
    // Only a subject the wiki has no page for yet: the user's note on it is the canon.
    const canonNote = ctx.canon ? await canonNoteFor(page, ctx.canon, confirm, apart) : null;
    if (canonNote && ctx.canon?.mode === "link") {
      // Links to the subject in the run's other pages open the note.
      fileNames.set(key, canonNote.path.replace(/\.md$/iu, ""));
      ctx.onLinkedNote?.({ title: page.title, notePath: canonNote.path, sentence: linkedSentence("link", canonNote) });
      continue;
    }
    const { path, exists, linkable } = await targetsOf.target(page.title, page.type as PageType);
    if (linkable) fileNames.set(key, basenameOf(path));
    // PageTargets finds an existing file only when it records this title, which the registry would
    // have matched already; read it anyway rather than trust that.
    const record = exists ? (registry.records.find((r) => r.path === path) ?? recordOf(path, await ctx.vault.read(path))) : null;
    targets.push({ page, path, record, aliases: [], ...(canonNote ? { canonNote } : {}) });
  }

  const changes: PlannedPage[] = [];
  for (const { page, path, record, aliases, match, canonNote } of targets) {
    const rewritten = rewriteLinks(page.content, fileNames);
    // Added after the rewrite, which would send a link named like the note to this page.
    const content = canonNote ? `${rewritten.trimEnd()}\n\nYour own note on this subject: ${noteLink(canonNote.path, canonNote.title)}.` : rewritten;
    const linked: WikiPage = { ...page, content };
    const id = record?.id ?? newPageId(page.type, linked.title, ctx.sourcePath, ctx.date);
    const onPage = (found: UpdateResult["contradictions"]) => found.map((c): Contradiction => ({ page: path, ...c }));
    if (!record) {
      const result = triage([], { source: ctx.sourcePath, sourceTitle: ctx.sourceTitle, content: linked.content, claims: page.contradicts ?? [] });
      const create = renderNewPage(linked, ctx.date, id, renderBody(result.segments));
      const detail = canonNote ? linkedSentence("page", canonNote) : undefined;
      changes.push({ path, type: page.type, title: linked.title, action: "created", create, id, ...(detail ? { detail } : {}), contradictions: onPage(result.contradictions) });
      continue;
    }
    const update = lastOf((current: string) => updateExisting(current, linked, { ...ctx, aliases, id }));
    const planned = update(await ctx.vault.read(path));
    const detail = [match?.sentence, planned.detail].filter(Boolean).join(" ");
    changes.push({
      path,
      type: record.type || page.type,
      title: record.title,
      action: planned.action,
      // applyPlan writes nothing when the content it computes is what the file holds.
      update,
      id,
      ...(match ? { match } : {}),
      ...(planned.locked !== undefined ? { locked: planned.locked } : {}),
      ...(detail ? { detail } : {}),
      contradictions: onPage(planned.contradictions),
    });
  }
  if (ctx.retractUnyielded) changes.push(...(await retractions(registry, new Set(targets.map((t) => t.path)), ctx)));
  return changes;
}

/** The note's part of every page it yielded before and no longer does. */
async function retractions(registry: PageRegistry, targeted: ReadonlySet<string>, ctx: PlanContext): Promise<PlannedPage[]> {
  const out: PlannedPage[] = [];
  const former = ctx.formerSources ?? [];
  const holdsSection = sectionsFrom(ctx.sourcePath, former);
  for (const record of registry.records) {
    if (targeted.has(record.path) || record.locked || !holdsSection(record)) continue;
    const update = lastOf((current: string) => retractSource(current, ctx.sourcePath, ctx.sourceTitle, ctx.date, former));
    const planned = update(await ctx.vault.read(record.path));
    // Only edited sections of the note are left there: they stay, and nothing is planned.
    if (planned.action === "unchanged") continue;
    out.push({
      path: record.path,
      type: record.type,
      title: record.title,
      action: planned.action,
      update,
      ...(record.id ? { id: record.id } : {}),
      ...(planned.detail ? { detail: planned.detail } : {}),
    });
  }
  return out;
}
