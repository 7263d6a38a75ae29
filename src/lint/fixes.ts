/**
 * Lint's fixes as planned changes for the one write path: each chosen fix becomes edits of whole
 * files (recomputed from the file as it is when applied), so fixes are reviewed as diffs, applied
 * all-or-nothing, recorded in log.md and undone in one step like every other write.
 * Several fixes on one file compose into one change; a fix that would act on a file another fix
 * removes is left out and said so. Fixes edit wiki pages and index.md only: the user's notes are
 * theirs (and a note's text is its fingerprint, so editing it would make its pages look stale). The plan edits index.md itself (fixes are about the index too),
 * so it is applied with `maintainIndex: false`.
 */
import { stringify } from "yaml";
import { replaceOutsideCode } from "../core/code-spans";
import { sanitiseMarkdown } from "../core/sanitise-markdown";
import { frontmatterList, splitFrontmatter } from "../core/markdown";
import { mergeSources, sourceKey } from "../core/sources";
import { nameKey } from "../core/unicode";
import { targetedWikilinks, wikilinkParts } from "../core/wikilinks";
import { editIndex, indexPath, type IndexEntry } from "../write/index-log";
import type { PlannedChange } from "../write/planned-change";
import { basenameOf, pagePath } from "../wiki/page-paths";
import { planRetractPages, retractNoteFromPage, retractTarget, noteTitleOf } from "../wiki/retract-note";
import { linksOutsideCode, Resolver, type PageRecord, type WikiSnapshot } from "./snapshot";
import { indexDrift } from "./index-drift";
import { mergeGroups } from "./merge-chains";
import type { Finding, Fix, FixKind } from "./types";

export interface ChosenFix<F extends Fix = Fix> {
  readonly finding: Finding;
  readonly fix: F;
}

/** Narrows a chosen fix to one kind, its fields typed. */
export function chosenOfKind<K extends FixKind>(kind: K): (c: ChosenFix) => c is ChosenFix<Extract<Fix, { readonly kind: K }>> {
  return (c): c is ChosenFix<Extract<Fix, { readonly kind: K }>> => c.fix.kind === kind;
}

export interface PlannedFix extends ChosenFix {
  /** The files the fix writes, creates or removes: it is carried out only if every one is. */
  readonly paths: readonly string[];
}

/** A fix left out of a run, with why: as a terminal says it, and as Obsidian does when that differs. */
export interface SkippedFix {
  readonly fix: ChosenFix;
  readonly reason: string;
  readonly pluginReason?: string;
}

export interface FixPlan {
  readonly changes: readonly PlannedChange[];
  /** Fixes that are not plain edits (re-ingest a note): the caller runs them through ingest. */
  readonly reingest: readonly string[];
  /** Fixes left out, with why. */
  readonly skipped: readonly SkippedFix[];
  /** The fixes the changes carry out. */
  readonly planned: readonly PlannedFix[];
}

type Edit = (current: string) => string;

/** Fixes that need a person's choice between two sides: offered one by one, never applied in bulk. */
const CHOSEN_BY_HAND: ReadonlySet<Fix["kind"]> = new Set(["resolve-contradiction", "dismiss-contradiction"]);

/**
 * One fix per finding: the first safe one ("fix all safe"), or the first one offered ("fix all").
 * A group of duplicates is one finding with a merge per page it takes in: all of them are chosen.
 */
export function chooseFixes(findings: readonly Finding[], mode: "safe" | "all"): ChosenFix[] {
  const out: ChosenFix[] = [];
  for (const finding of findings) {
    const fix = finding.fixes.find((f) => !CHOSEN_BY_HAND.has(f.kind) && (mode === "all" || f.safe));
    if (fix?.kind === "merge-duplicates") out.push(...finding.fixes.filter((f) => f.kind === "merge-duplicates").map((f) => ({ finding, fix: f })));
    else if (fix) out.push({ finding, fix });
  }
  return out;
}

/** Rewrites links (outside code) whose target resolves to `from` so they point at `to`, keeping what they showed. */
export function retargetLinks(markdown: string, matches: (target: string) => boolean, to: string): string {
  return replaceOutsideCode(markdown, targetedWikilinks, (m) => {
    const whole = markdown.slice(m.index, m.end);
    const bang = m.embed ? "!" : "";
    const { target, anchor = "", alias } = wikilinkParts(m.inner);
    if (!matches(target.trim())) return whole;
    const shown = alias ?? (bang ? "" : `|${basenameOf(target.trim())}`);
    return `${bang}[[${to}${anchor}${shown === `|${to}` ? "" : shown}]]`;
  });
}

function withFrontmatter(current: string, edit: (fm: Record<string, unknown>) => void): string {
  const split = splitFrontmatter(current);
  if (split.frontmatterInvalid) return current;
  const fm = { ...split.frontmatter };
  edit(fm);
  return `---\n${stringify(fm, { lineWidth: 0 }).trimEnd()}\n---\n${split.body.startsWith("\n") ? "" : "\n"}${split.body}`;
}

function stub(linkTarget: string, sources: readonly string[], linkedFrom: string, date: string): string {
  // The title is a link target on a page a model may have written before pages were sanitised.
  const title = sanitiseMarkdown(linkTarget);
  const fm = { type: "concept", title, sources: [...sources], tags: [], created: date, updated: date, synapse_stub: true };
  return `---\n${stringify(fm, { lineWidth: 0 }).trimEnd()}\n---\n\n# ${title}\n\nA stub: [[${basenameOf(linkedFrom)}]] links here. Ingest a note about ${title} to fill it.\n`;
}

/**
 * Adds `- [[name]]` under the page's "Related" heading (made at the end when there is none). A
 * page that already links there is left as it is.
 */
export function withRelatedLink(markdown: string, name: string): string {
  if (linksOutsideCode(markdown).some((t) => nameKey(basenameOf(t)) === nameKey(name))) return markdown;
  const lines = markdown.replace(/\n+$/, "").split("\n");
  const heading = lines.findIndex((l) => /^#{2,6}\s+(related|see also)\s*$/i.test(l.trim()));
  const item = `- [[${name}]]`;
  if (heading === -1) return `${lines.join("\n")}\n\n## Related\n\n${item}\n`;
  let end = heading + 1;
  while (end < lines.length && !/^#{1,6}\s/.test(lines[end] ?? "")) end++;
  while (end > heading + 1 && (lines[end - 1] ?? "").trim() === "") end--;
  lines.splice(end, 0, ...(end === heading + 1 ? ["", item] : [item]));
  return `${lines.join("\n")}\n`;
}

/** The merged page keeps its own text and takes the other's sources, aliases and title as an alias. */
function absorb(keep: string, removed: PageRecord): string {
  const merged = withFrontmatter(keep, (fm) => {
    fm.sources = mergeSources(frontmatterList(fm.sources), [...removed.sources]);
    const aliases = frontmatterList(fm.aliases);
    const ownTitle = typeof fm.title === "string" ? fm.title : "";
    for (const alias of [removed.title, ...removed.aliases]) {
      if (nameKey(alias) !== nameKey(ownTitle) && !aliases.some((a) => nameKey(a) === nameKey(alias))) aliases.push(alias);
    }
    if (aliases.length > 0) fm.aliases = aliases;
  });
  const body = removed.body.trim();
  if (!body || merged.includes(body)) return merged;
  return `${merged.trimEnd()}\n\n## Merged from ${removed.title}\n\n${body}\n`;
}

export function planFixes(snapshot: WikiSnapshot, chosen: readonly ChosenFix[], date: string): FixPlan {
  const resolver = Resolver.of(snapshot);
  const pages = new Map(snapshot.pages.map((p) => [p.path, p]));
  const edits = new Map<string, Edit[]>();
  const creates = new Map<string, string>();
  const removes = new Map<string, string>();
  const reingest = new Set<string>();
  const skipped: SkippedFix[] = [];
  const planned: ChosenFix[] = [];
  const index = indexPath(snapshot.wikiFolder);
  // The files each fix touches, recorded as its edits are made (`by` is the fix being planned).
  const touched = new Map<ChosenFix, Set<string>>();
  let by: ChosenFix | null = null;
  const touch = (path: string) => {
    if (by) touched.set(by, (touched.get(by) ?? new Set()).add(path));
  };
  const edit = (path: string, e: Edit) => {
    edits.set(path, [...(edits.get(path) ?? []), e]);
    touch(path);
  };
  const entryOf = (p: PageRecord): IndexEntry => ({ path: p.path, type: p.type, title: p.title });
  // Moved pages by where they go: edits planned on the page (a merge into it) follow it there.
  const movedFrom = new Map<string, string>();
  // Notes a retract-source fix already covers (several pages' findings name one note).
  const retracted = new Set<string>();

  // Removals first, so later fixes can see what goes; chained merges each go to their final keeper.
  const merges = chosen.flatMap((c) => (c.fix.kind === "merge-duplicates" ? [{ ...c.fix.params, by: c }] : []));
  const mergeable = (m: { readonly keep: string; readonly remove: string }) => pages.has(m.keep) && pages.has(m.remove);
  const merging = mergeGroups(merges.filter(mergeable));
  const mergeSkipped = new Map(merging.skipped.map((s) => [s.by, s.reason]));
  const mergedAway = new Set(merging.merges.map((m) => m.remove));
  for (const m of merging.merges) removes.set(m.remove, pages.get(m.remove)?.text ?? "");

  for (const c of chosen) {
    by = c;
    const { fix, finding } = c;
    if (removes.has(finding.page) && fix.kind !== "merge-duplicates") {
      skipped.push({ fix: c, reason: `${finding.page} is removed by a merge in the same run.` });
      continue;
    }
    switch (fix.kind) {
      case "retarget-link":
        if ("source" in fix.params) {
          const from = sourceKey(fix.params.source);
          edit(finding.page, (cur) => withFrontmatter(cur, (fm) => (fm.sources = frontmatterList(fm.sources).map((s) => (sourceKey(s) === from ? fix.params.to : s)))));
        } else {
          const from = nameKey(fix.params.from);
          edit(finding.page, (cur) => retargetLinks(cur, (t) => nameKey(t) === from, fix.params.to));
        }
        break;
      case "drop-missing-source": {
        const gone = sourceKey(fix.params.source);
        edit(finding.page, (cur) => withFrontmatter(cur, (fm) => (fm.sources = frontmatterList(fm.sources).filter((s) => sourceKey(s) !== gone))));
        break;
      }
      case "retract-source": {
        // One retract per note, whichever page's finding asked for it: it covers every page.
        const note = retractTarget(fix.params.source);
        if (retracted.has(note)) {
          touch(finding.page);
          break;
        }
        retracted.add(note);
        const pagesNow = snapshot.pages.filter((pg) => !removes.has(pg.path)).map((pg) => ({ path: pg.path, text: pg.text }));
        for (const change of planRetractPages(pagesNow, note, date).changes) {
          if (change.remove) {
            removes.set(change.path, change.remove.expected ?? "");
            touch(change.path);
            edit(index, (cur) => editIndex(cur, { remove: [change.path] }));
          } else edit(change.path, (cur) => retractNoteFromPage(cur, note, noteTitleOf(note), date).content);
        }
        touch(finding.page);
        break;
      }
      case "create-stub": {
        const path = pagePath(snapshot.wikiFolder, "concept", fix.params.title);
        if (resolver.resolve(basenameOf(path)) || creates.has(path)) {
          skipped.push({ fix: c, reason: `A page named "${basenameOf(path)}" exists or is already planned.` });
          continue;
        }
        creates.set(path, stub(fix.params.title, pages.get(finding.page)?.sources ?? [], finding.page, date));
        touch(path);
        edit(index, (cur) => editIndex(cur, { upsert: [{ path, type: "concept", title: sanitiseMarkdown(fix.params.title) }] }));
        break;
      }
      case "add-to-index": {
        const page = pages.get(finding.page);
        if (page) edit(index, (cur) => editIndex(cur, { upsert: [entryOf(page)] }));
        break;
      }
      case "rebuild-index": {
        // Evaluated when applied, from index.md as it is then and with every page this plan
        // creates or removes: exactly the missing pages are added and the dangling entries removed.
        edit(index, (cur) => {
          const created = new Set([...creates.keys()].map((f) => f.replace(/\.md$/i, "").toLowerCase()));
          const resolveNow = (t: string): string | null => {
            if (created.has(t.replace(/\.md$/i, "").toLowerCase())) return t;
            const found = resolver.resolve(t);
            return found !== null && !removes.has(found) ? found : null;
          };
          const drift = indexDrift(cur, snapshot.pages.filter((pg) => !removes.has(pg.path)), resolveNow);
          return editIndex(cur, { upsert: drift.missing.map(entryOf), remove: drift.dangling.map((t) => `${t}.md`) });
        });
        break;
      }
      case "merge-duplicates": {
        const reason = mergeable(fix.params) ? mergeSkipped.get(c) : "One of the pages to merge is gone.";
        if (reason !== undefined) {
          skipped.push({ fix: c, reason });
          continue;
        }
        // Planned below, once every chain of merges is known.
        break;
      }
      case "move-to-type-folder": {
        const page = pages.get(finding.page);
        const to = fix.params.to;
        if (!page || resolver.resolve(to.replace(/\.md$/i, "")) || creates.has(to)) {
          skipped.push({ fix: c, reason: `Something already stands at ${to}.` });
          continue;
        }
        creates.set(to, page.text);
        movedFrom.set(to, page.path);
        removes.set(page.path, page.text);
        touch(to);
        touch(page.path);
        const pointsAtPage = (t: string) => t.includes("/") && resolver.resolve(t) === page.path;
        for (const other of snapshot.pages) {
          if (other.path !== page.path && other.links.some(pointsAtPage)) edit(other.path, (cur) => retargetLinks(cur, pointsAtPage, to.replace(/\.md$/i, "")));
        }
        edit(index, (cur) => editIndex(cur, { move: [{ from: page.path, to }] }));
        break;
      }
      case "reingest":
        reingest.add(fix.params.note);
        break;
      case "link-from-related": {
        const from = fix.params.from;
        if (!pages.has(from) || removes.has(from)) {
          skipped.push({ fix: c, reason: `${from} is gone or removed in the same run.` });
          continue;
        }
        edit(from, (cur) => withRelatedLink(cur, basenameOf(finding.page)));
        break;
      }
      case "resolve-contradiction":
      case "dismiss-contradiction":
        skipped.push({
          fix: c,
          reason: "A contradiction is settled one at a time: synapse lint --resolve <id> --keep 1|2, or --dismiss <id>.",
          pluginReason: 'A contradiction is settled one at a time: choose "Keep what … says" or "Dismiss it" on its finding.',
        });
        continue;
      case "undo-interrupted-run":
        // Not a page edit: lint undoes it as a run of its own (see run-lint.ts).
        skipped.push({ fix: c, reason: "A run interrupted on another device is undone as a run of its own." });
        continue;
    }
    planned.push(c);
  }

  // Each final keeper takes every page merged into it, then every link to one of those pages (in
  // the wiki, and in the text it has just taken in) points at the keeper.
  const linksAfterMerge = new Map(snapshot.pages.map((pg) => [pg.path, [...pg.links]]));
  for (const m of merging.merges) {
    by = m.by;
    const removed = pages.get(m.remove);
    if (removed) edit(m.keeper, (cur) => absorb(cur, removed));
    linksAfterMerge.get(m.keeper)?.push(...(removed?.links ?? []));
    touch(m.remove);
  }
  for (const m of merging.merges) {
    by = m.by;
    const pointsAtRemoved = (t: string) => resolver.resolve(t) === m.remove;
    const to = basenameOf(m.keeper);
    for (const [path, links] of linksAfterMerge) {
      if (!mergedAway.has(path) && links.some(pointsAtRemoved)) edit(path, (cur) => retargetLinks(cur, pointsAtRemoved, to));
    }
    edit(index, (cur) => editIndex(cur, { remove: [m.remove] }));
  }

  const changes: PlannedChange[] = [];
  for (const [path, content] of creates) {
    const from = movedFrom.get(path);
    const create = from === undefined ? content : (edits.get(from) ?? []).reduce((text, fn) => fn(text), content);
    changes.push({ path, type: "concept", title: basenameOf(path), action: "created", create });
  }
  for (const [path, fns] of edits) {
    if (removes.has(path)) continue;
    const page = pages.get(path);
    changes.push({
      path,
      type: path === index ? "index" : (page?.type ?? "note"),
      title: page?.title ?? basenameOf(path),
      action: "updated",
      update: (current) => {
        const next = fns.reduce((text, fn) => fn(text), current);
        return { content: next, action: next === current ? "unchanged" : "updated" };
      },
      // A wiki without index.md (or one removed since): the index fixes write it afresh. A missing
      // page is never brought back by an edit: it was removed, and that stays a conflict.
      ...(path === index ? { create: fns.reduce((text, fn) => fn(text), "") } : {}),
    });
  }
  for (const [path, expected] of removes) changes.push({ path, type: pages.get(path)?.type ?? "page", title: pages.get(path)?.title ?? basenameOf(path), action: "removed", remove: { expected } });
  return { changes, reingest: [...reingest], skipped, planned: planned.map((c) => ({ ...c, paths: [...(touched.get(c) ?? [])] })) };
}
