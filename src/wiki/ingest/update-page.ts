/**
 * One existing page file plus one source's material → the file's new content. The body is handled
 * by triage (source sections, the user's text kept); the frontmatter keeps the user's keys and
 * `type`, `title` and `created`, and gains the source, new tags and aliases, and an id.
 */
import { frontmatterPaths, splitFrontmatter } from "../../core/markdown";
import type { WikiPage } from "../../core/schemas";
import { sourceKey } from "../../core/sources";
import { contentHash } from "../../core/content-hash";
import type { FoundContradiction } from "../contradictions";
import { isLocked, newPageId } from "../identity";
import type { PageAction } from "../ingest-types";
import { HASH_KEY, composeMarkdown, mergeFrontmatter } from "../page-markdown";
import { formerKeys, respellSections, respellSources } from "../former-sources";
import { hasSections, parseBody, renderBody, type Segment } from "../provenance";
import { keepsOthers, triage } from "./triage";

export interface UpdateContext {
  readonly sourceTitle: string;
  readonly sourcePath: string;
  /** ISO day, e.g. 2026-11-29. */
  readonly date: string;
  /** Names to add to the page's `aliases` (the new title when it matched by alias or similarity). */
  readonly aliases?: readonly string[];
  /** The id given to a page that has none yet. */
  readonly id?: string;
  /** Paths the note had before it was moved: their sections and `sources` entries are the note's (wiki/former-sources.ts). */
  readonly formerSources?: readonly string[];
}

export interface UpdateResult {
  readonly content: string;
  readonly action: PageAction;
  readonly contradictions: readonly FoundContradiction[];
  /** A sentence for the run result (an edit kept, a change refused). */
  readonly detail?: string;
  /** Set when the page is locked: what Synapse would have added. */
  readonly locked?: string;
}

/**
 * A page written before provenance sections, still exactly as Synapse wrote it from this one note,
 * is that note's section; any other body without markers is the user's text.
 */
function currentSegments(body: string, frontmatter: Record<string, unknown>, source: string, former: ReadonlySet<string>): { segments: Segment[]; legacy: boolean } {
  const segments = parseBody(body);
  const legacy =
    !hasSections(segments) &&
    frontmatter[HASH_KEY] === contentHash(body) &&
    frontmatterPaths(frontmatter.sources).every((s) => sourceKey(s) === sourceKey(source) || former.has(sourceKey(s)));
  return { segments: legacy ? [] : segments, legacy };
}

function sameFrontmatter(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const strip = (o: Record<string, unknown>) => JSON.stringify({ ...o, updated: null, [HASH_KEY]: null });
  return strip(a) === strip(b);
}

export function updateExisting(current: string, page: WikiPage, ctx: UpdateContext): UpdateResult {
  const { frontmatter: written, body, frontmatterInvalid } = splitFrontmatter(current);
  const former = formerKeys(ctx.sourcePath, ctx.formerSources);
  const found = frontmatterInvalid ? { segments: parseBody(body), legacy: false } : currentSegments(body, written, ctx.sourcePath, former);
  // A moved note's sections under its old path are its own: revised in place, spelled anew.
  const { segments, changed: respelled } = respellSections(found.segments, former, ctx.sourcePath);
  const { legacy } = found;
  const frontmatter = { ...written, ...(written.sources !== undefined ? { sources: respellSources(written.sources, former, ctx.sourcePath) } : {}) };
  const result = triage(segments, { source: ctx.sourcePath, sourceTitle: ctx.sourceTitle, content: page.content, claims: page.contradicts ?? [] });
  const contentChanged = legacy || (result.decision !== "unchanged" && result.decision !== "skip");
  const bodyChanged = contentChanged || respelled;
  const unchanged: UpdateResult = { content: current, action: "unchanged", contradictions: [] };

  if (!frontmatterInvalid && isLocked(frontmatter)) {
    if (!contentChanged) return unchanged;
    const added = result.segments.filter((s) => !segments.includes(s)).map((s) => (s.kind === "section" ? s.content : s.text));
    return { ...unchanged, locked: added.join("\n\n") || page.content.trim() };
  }
  if (!keepsOthers(segments, result.segments, ctx.sourcePath)) {
    // Cannot happen through triage as written; a guard so that no future change can drop others' text.
    return { ...unchanged, detail: `Synapse refused a change to this page that would have dropped text that is not ${ctx.sourceTitle}'s.` };
  }
  const newBody = bodyChanged ? renderBody(result.segments) : body;
  const extra = { ...(result.detail ? { detail: result.detail } : {}), contradictions: result.contradictions };

  if (frontmatterInvalid) {
    // YAML we cannot read is the user's to fix: keep it byte for byte and change only the body.
    if (!bodyChanged) return unchanged;
    const block = current.slice(0, current.length - body.length);
    return { content: `${block}${newBody.trim()}\n`, action: "merged", ...extra };
  }
  // Material that added nothing adds no source and no tags either; an alias is identity, so it does.
  // Material the page already held is credited: its source, not its tags.
  const contributed = !bodyChanged ? { ...page.frontmatter, sources: [], tags: [] } : result.decision === "credit" ? { ...page.frontmatter, tags: [] } : page.frontmatter;
  const merged = mergeFrontmatter(frontmatter, { ...page, frontmatter: contributed }, {
    date: ctx.date,
    id: ctx.id ?? newPageId(page.type, page.title, ctx.sourcePath, ctx.date),
    aliases: ctx.aliases ?? [],
  });
  if (!bodyChanged && sameFrontmatter(written, merged)) return unchanged;
  const action: PageAction = legacy || result.decision === "revise" || !bodyChanged ? "updated" : "merged";
  return { content: composeMarkdown(merged, newBody), action, ...extra };
}

