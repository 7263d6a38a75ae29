/**
 * Retracting a source note that is gone (deleted, or its folder now excluded): its part of every
 * page leaves the wiki in one run of the write path — reviewed, journaled, undone in one step.
 *
 * Per page, `retractSource` removes the note's unedited sections; a page that only cites the note
 * (written before source sections) loses the citation. A section the user edited stays, with the
 * note still cited, and is reported. A page left with no source and no text is offered for
 * removal (the review may keep it); index.md follows through the write path, and the note's entry
 * in the registry of ingested notes goes with the run (undo brings it back).
 */
import { SynapseError } from "../core/errors";
import { splitFrontmatter } from "../core/markdown";
import { canonicalSource, sourceKey } from "../core/sources";
import type { StateStore } from "../vault/state-store";
import type { VaultPort } from "../vault/vault-port";
import { contentHash } from "../core/content-hash";
import { formerKeys } from "./former-sources";
import { isLocked } from "./identity";
import { indexPath, logPath } from "../write/index-log";
import { HASH_KEY, composeMarkdown } from "./page-markdown";
import { basenameOf } from "./page-paths";
import type { PlannedChange, PlannedStateChange } from "../write/planned-change";
import { hasSectionFrom, retractSource } from "./retract";
import { isInFolder } from "./read-note";
import { SourceRegistry } from "./source-registry";

/** A page as the retract reads it. */
export interface RetractablePage {
  readonly path: string;
  readonly text: string;
}

export interface RetractedPage {
  readonly path: string;
  readonly type: string;
  readonly title: string;
  readonly action: "updated" | "removed";
  /** A sentence for the result: what leaves the page, and what is left on it. */
  readonly detail: string;
}

export interface RetractPlan {
  /** The note retracted, as a vault path (`notes/A.md`). */
  readonly notePath: string;
  /** One change per page the note's part leaves (an update, or the page's removal). */
  readonly changes: readonly PlannedChange[];
  /** What each change does, in the same order. */
  readonly pages: readonly RetractedPage[];
  /** Pages that keep part of the note: a section the user edited, or a page the user locked. */
  readonly kept: readonly { readonly path: string; readonly detail: string }[];
  /** The note's registry entry forgotten with the run. */
  readonly state: readonly PlannedStateChange[];
}

const hasWords = (text: string) => /[\p{L}\p{N}]/u.test(text);

function sourcesOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((s): s is string => typeof s === "string");
  if (typeof value === "string") return value.split(",").map((s) => s.trim()).filter(Boolean);
  return [];
}

/**
 * The page's text with the note's part gone (`retractSource`), and the note's citation dropped
 * when no section of the note is left on it (a page written before source sections cites it only
 * in `sources`). Unchanged when the page holds nothing of the note, is locked, or its YAML is broken.
 */
export function retractNoteFromPage(current: string, notePath: string, noteTitle: string, date: string, former: readonly string[] = []): { content: string; changed: boolean } {
  const { frontmatter, frontmatterInvalid } = splitFrontmatter(current);
  if (frontmatterInvalid || isLocked(frontmatter)) return { content: current, changed: false };
  const sectioned = retractSource(current, notePath, noteTitle, date, former).content;
  const after = splitFrontmatter(sectioned);
  if (hasSectionFrom(after.body, notePath, former)) return { content: sectioned, changed: sectioned !== current };
  const keys = new Set([sourceKey(notePath), ...formerKeys(notePath, former)]);
  const sources = sourcesOf(after.frontmatter.sources);
  const left = sources.filter((s) => !keys.has(sourceKey(s)));
  if (left.length === sources.length) return { content: sectioned, changed: sectioned !== current };
  const next: Record<string, unknown> = { ...after.frontmatter, sources: left, updated: date };
  // The body is unchanged, so a fingerprint of it (HASH_KEY) stays true.
  return { content: composeMarkdown(next, after.body), changed: true };
}

/**
 * Should a page, once the note's part is gone, be offered for removal? When it cites no source and
 * holds no text: nothing on it says anything. A page written before source sections whose body is
 * still exactly what Synapse wrote (its fingerprint matches) and whose only source was the note is
 * the note's text alone, and goes too.
 */
function leftEmpty(before: string, after: string): boolean {
  const { frontmatter, body } = splitFrontmatter(after);
  if (sourcesOf(frontmatter.sources).length > 0) return false;
  if (!hasWords(body)) return true;
  const old = splitFrontmatter(before);
  const hash = old.frontmatter[HASH_KEY];
  return typeof hash === "string" && hash === contentHash(old.body);
}

/** The pages of the wiki the retract may touch: every Markdown file under it but index.md and log.md. */
export function isRetractablePath(path: string, wikiFolder: string): boolean {
  return isInFolder(path, wikiFolder) && /\.md$/i.test(path) && path !== indexPath(wikiFolder) && path !== logPath(wikiFolder);
}

/** The note's title as pages name it in their results: its file name. */
export function noteTitleOf(notePath: string): string {
  return basenameOf(notePath).replace(/\.md$/i, "");
}

/** The changes that take the note's part out of these pages (no vault read: lint plans from its snapshot). */
export function planRetractPages(pages: readonly RetractablePage[], notePath: string, date: string, former: readonly string[] = []): Omit<RetractPlan, "state" | "notePath"> {
  const title = noteTitleOf(notePath);
  const keys = new Set([sourceKey(notePath), ...formerKeys(notePath, former)]);
  const changes: PlannedChange[] = [];
  const described: RetractedPage[] = [];
  const kept: { path: string; detail: string }[] = [];
  for (const page of pages) {
    const split = splitFrontmatter(page.text);
    const cites = sourcesOf(split.frontmatter.sources).some((s) => keys.has(sourceKey(s)));
    if (!cites && !hasSectionFrom(split.body, notePath, former)) continue;
    const type = typeof split.frontmatter.type === "string" ? split.frontmatter.type : "page";
    const pageTitle = typeof split.frontmatter.title === "string" ? split.frontmatter.title : basenameOf(page.path);
    if (split.frontmatterInvalid || isLocked(split.frontmatter)) {
      kept.push({ path: page.path, detail: split.frontmatterInvalid ? "Its frontmatter is not valid YAML, so it was left as it is." : "It is locked, so it was left as it is." });
      continue;
    }
    const update = (current: string) => retractNoteFromPage(current, notePath, title, date, former).content;
    const after = update(page.text);
    const stillHas = hasSectionFrom(splitFrontmatter(after).body, notePath, former);
    if (stillHas) kept.push({ path: page.path, detail: `Your edit of ${title}'s section was kept, and ${title} stays in its sources.` });
    if (after === page.text) continue;
    if (leftEmpty(page.text, after)) {
      changes.push({ path: page.path, type, title: pageTitle, action: "removed", remove: { expected: page.text } });
      described.push({ path: page.path, type, title: pageTitle, action: "removed", detail: `Nothing but ${title}'s part was on it, so the page goes.` });
      continue;
    }
    const left = sourcesOf(splitFrontmatter(after).frontmatter.sources).length;
    changes.push({
      path: page.path,
      type,
      title: pageTitle,
      action: "updated",
      update: (current) => {
        const content = update(current);
        return { content, action: content === current ? "unchanged" : "updated" };
      },
    });
    described.push({
      path: page.path,
      type,
      title: pageTitle,
      action: "updated",
      detail: left === 0 ? `${title}'s part was removed; no source supports what is left on it.` : `${title}'s part was removed.`,
    });
  }
  return { changes, pages: described, kept };
}

export interface RetractRequest {
  readonly notePath: string;
  readonly wikiFolder: string;
  /** Is the note in an excluded folder? A note there may still exist: it is out of Synapse's reach. */
  readonly isExcluded: (path: string) => boolean;
  /** `YYYY-MM-DD`, for the pages' `updated`. */
  readonly date: string;
}

/** A vault path for the note as the user names it: `notes/A`, `[[notes/A]]` and `notes/A.md` alike. */
export function retractTarget(note: string): string {
  const path = canonicalSource(note.trim().startsWith("[[") ? note : `[[${note.replace(/\.md$/i, "")}]]`);
  return path;
}

/**
 * Plans the retract of a note that is gone. A note that is still there (and not excluded) is
 * refused: its pages still come from it, and re-ingesting it is how they change.
 */
export async function planRetract(vault: VaultPort, store: StateStore, request: RetractRequest): Promise<RetractPlan> {
  const notePath = retractTarget(request.notePath);
  if (!notePath) throw new SynapseError("input", "Name the source note to retract, such as notes/Ada.md.");
  if (isInFolder(notePath, request.wikiFolder)) throw new SynapseError("input", `${notePath} is a wiki page, not a source note.`);
  if (!request.isExcluded(notePath) && (await vault.stat(notePath))) {
    throw new SynapseError("input", `${notePath} still exists, so its pages still come from it; delete it or exclude its folder first, or re-ingest it to revise them.`);
  }
  const registry = new SourceRegistry(store);
  const entry = await registry.entry(notePath);
  const former = [...(entry?.formerPaths ?? [])];
  const pages: RetractablePage[] = [];
  for (const path of (await vault.list(request.wikiFolder)).filter((p) => isRetractablePath(p, request.wikiFolder)).sort()) {
    pages.push({ path, text: await vault.read(path) });
  }
  const planned = planRetractPages(pages, notePath, request.date, former);
  return { notePath, ...planned, state: entry ? await registry.forget(notePath) : [] };
}
