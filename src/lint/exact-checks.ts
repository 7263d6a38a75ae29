/**
 * The exact checks: no model, the whole wiki, from one snapshot. Each finding names its page and
 * the fixes that apply; a fix is "safe" only when it changes no text the user wrote (a page whose
 * body still matches the fingerprint Synapse recorded is Synapse's own text).
 */
import { sourceKey } from "../core/sources";
import { nameKey } from "../core/unicode";
import { contentHash } from "../core/content-hash";
import { indexPath, logPath } from "../write/index-log";
import { HASH_KEY } from "../wiki/page-markdown";
import { TYPE_FOLDERS, basenameOf, isPageType } from "../wiki/page-paths";
import { isAllSynapseText } from "../wiki/provenance";
import { isInFolder } from "../wiki/read-note";
import { describeDrift, indexDrift } from "./index-drift";
import { indexLinkPieces } from "./index-links";
import { NearNames } from "./near-names";
import { pageNamer } from "./page-names";
import { Resolver, type PageRecord, type WikiSnapshot } from "./snapshot";
import type { Check, Finding, Fix } from "./types";
import { runPieces, runPiecesSliced, type Pieces } from "../core/time-slice";

export interface CheckInputs {
  readonly snapshot: WikiSnapshot;
  /** Has this source note changed since the page was last written from it? null when unknown. */
  readonly sourceChanged?: (notePath: string) => boolean | null;
}

/**
 * Synapse's own text: every source section still matches the hash recorded in its marker and there
 * is no text of the user's around them — or, for a page written before source sections, the body
 * still matches the fingerprint recorded in its frontmatter.
 */
export function isSynapseText(page: PageRecord): boolean {
  const hash = page.frontmatter[HASH_KEY];
  return (typeof hash === "string" && hash === contentHash(page.body)) || isAllSynapseText(page.body);
}

/**
 * The notes whose links lead to a page (only those written as a path, when `byPath`): fixes never
 * edit the user's notes, so a fix that removes or moves the page leaves those links to them.
 */
function notesLinkingTo(path: string, snapshot: WikiSnapshot, resolver: Resolver, byPath = false): string {
  const notes = [...snapshot.noteLinks].filter(([, links]) => links.some((t) => (!byPath || t.includes("/")) && resolver.resolve(t) === path)).map(([note]) => note);
  if (notes.length === 0) return "";
  const named = pageNamer(snapshot);
  return ` Links to ${byPath ? "its path" : named(path)} in your notes are left as they are: ${notes.map(named).join(", ")}.`;
}

/** The note a `sources` entry names: "[[Clippings/Tea|tea]]" → "Clippings/Tea". */
function sourceTarget(source: string): string {
  return source.replace(/^\[\[|\]\]$/g, "").split("|")[0] ?? source;
}

function finding(check: Check, page: string, message: string, fixes: Fix[] = [], severity: Finding["severity"] = "warning"): Finding {
  return { check, severity, page, message, fixes };
}

/** The closest name that is not the page's own (its file name, title or an alias). */
function nearestOther(name: string, names: NearNames, page: PageRecord, resolver: Resolver): string | null {
  const near = names.closest(name);
  if (near === null || resolver.resolve(near) !== page.path) return near;
  // Rare: look again without the page's own names.
  return names.closest(name, (n) => resolver.resolve(n) !== page.path);
}

function danglingLinks(page: PageRecord, resolver: Resolver, names: NearNames, snapshot: WikiSnapshot): Finding[] {
  const out: Finding[] = [];
  for (const target of page.links) {
    if (resolver.resolve(target)) continue;
    const fixes: Fix[] = [];
    // Never the page itself: a link from a page to itself leads nowhere new.
    const moved = resolver.movedTo(target, (file) => file !== page.path);
    const near = moved ? basenameOf(moved) : nearestOther(basenameOf(target), names, page, resolver);
    if (near) {
      fixes.push({ kind: "retarget-link", label: `Point [[${target}]] at [[${near}]]`, safe: isSynapseText(page), params: { from: target, to: near } });
    }
    fixes.push({ kind: "create-stub", label: `Create a stub page "${basenameOf(target)}"`, safe: true, params: { title: basenameOf(target), folder: snapshot.wikiFolder } });
    out.push(finding("dangling-link", page.path, `[[${target}]] leads to no page or note.`, fixes));
  }
  return out;
}

/**
 * A page to link an orphan from: one drawn from the same source (the plainest name first), else
 * one the orphan itself links to. Never the orphan, an empty page, or one whose frontmatter is broken.
 */
function relatedPage(orphan: PageRecord, bySource: ReadonlyMap<string, readonly PageRecord[]>, resolver: Resolver, pages: ReadonlyMap<string, PageRecord>): PageRecord | null {
  const usable = (p: PageRecord | undefined): p is PageRecord => p !== undefined && p.path !== orphan.path && !p.frontmatterInvalid && /[\p{L}\p{N}]/u.test(p.body);
  const siblings = orphan.sources.flatMap((s) => bySource.get(sourceKey(s)) ?? []).filter(usable);
  siblings.sort((a, b) => basenameOf(a.path).length - basenameOf(b.path).length || (a.path < b.path ? -1 : 1));
  if (siblings[0]) return siblings[0];
  for (const target of orphan.links) {
    const linked = pages.get(resolver.resolve(target) ?? "");
    if (usable(linked)) return linked;
  }
  return null;
}

/** Of two duplicates, the one to keep: the shorter file name, then the first path. */
function keepsOver(a: PageRecord, b: PageRecord): boolean {
  const la = basenameOf(a.path).length;
  const lb = basenameOf(b.path).length;
  return la !== lb ? la < lb : a.path < b.path;
}

/** How many names of files and aliases are keyed in one piece, for the mistyped links. */
const NAMES_PER_PIECE = 1000;
/** How many of index.md's links are resolved in one piece. */
const INDEX_LINKS_PER_PIECE = 250;

/** The exact checks at once (the CLI's tests, fixes, settling a contradiction). */
export function exactChecks(inputs: CheckInputs): Finding[] {
  return runPieces(exactCheckPieces(inputs));
}

/** The exact checks with `checkpoint` awaited between pages (see slices.ts): the same findings, in slices. */
export function exactChecksSliced(inputs: CheckInputs, checkpoint?: () => Promise<void>): Promise<Finding[]> {
  return runPiecesSliced(exactCheckPieces(inputs), checkpoint);
}

/** The checks as pieces: one page of each pass a piece, so no step grows with the wiki. */
function* exactCheckPieces(inputs: CheckInputs): Pieces<Finding[]> {
  const { snapshot } = inputs;
  const resolver = Resolver.of(snapshot);
  yield;
  // index.md and log.md are Synapse's bookkeeping, never what a mistyped link meant ("Fog" is not "log").
  const bookkeeping = new Set([indexPath(snapshot.wikiFolder), logPath(snapshot.wikiFolder)]);
  const names = new NearNames();
  for (const [k, name] of [...new Set(snapshot.files.filter((f) => !bookkeeping.has(f)).map(basenameOf)), ...snapshot.pages.flatMap((p) => p.aliases)].entries()) {
    if (k % NAMES_PER_PIECE === 0) yield;
    names.add(name);
  }
  yield;
  const findings: Finding[] = [];
  const inbound = new Map<string, number>();
  const count = (from: string, targets: readonly string[]) => {
    for (const t of targets) {
      const to = resolver.resolve(t);
      if (to && to !== from) inbound.set(to, (inbound.get(to) ?? 0) + 1);
    }
  };
  for (const page of snapshot.pages) {
    count(page.path, page.links);
    yield;
  }
  for (const [path, links] of snapshot.noteLinks) {
    count(path, links);
    yield;
  }
  const resolve = (target: string) => resolver.resolve(target);
  // The files index.md's links lead to (indexedFiles), its links read and resolved a few hundred
  // per piece: an index lists every page.
  const indexLinks = snapshot.indexText ? yield* indexLinkPieces(snapshot.indexText) : [];
  const indexed = new Set<string>();
  for (const [k, target] of indexLinks.entries()) {
    if (k % INDEX_LINKS_PER_PIECE === 0) yield;
    const p = resolve(target);
    if (p !== null) indexed.add(p);
  }
  yield;
  for (const p of indexed) inbound.set(p, (inbound.get(p) ?? 0) + 1);

  const pagesByPath = new Map(snapshot.pages.map((p) => [p.path, p]));
  yield;
  const named = pageNamer(snapshot);
  yield;
  const bySource = new Map<string, PageRecord[]>();
  const byName = new Map<string, PageRecord[]>();
  const twinCache = new Map<PageRecord, ReadonlySet<PageRecord>>();
  /** The other pages sharing one of this page's names (title or alias). */
  const twinsOf = (page: PageRecord): ReadonlySet<PageRecord> => {
    let twins = twinCache.get(page);
    if (!twins) {
      twins = new Set([page.title, ...page.aliases].flatMap((n) => byName.get(nameKey(n)) ?? []).filter((p) => p !== page));
      twinCache.set(page, twins);
    }
    return twins;
  };
  for (const page of snapshot.pages) {
    yield;
    for (const source of page.sources) {
      const key = sourceKey(source);
      const list = bySource.get(key);
      if (list) list.push(page);
      else bySource.set(key, [page]);
    }
    for (const name of new Set([page.title, ...page.aliases].map(nameKey))) {
      const list = byName.get(name);
      if (list) list.push(page);
      else byName.set(name, [page]);
    }
  }

  for (const page of snapshot.pages) {
    yield;
    const on = (check: Check) => !page.ignored.has(check);
    if (on("invalid-frontmatter")) {
      if (page.frontmatterInvalid) findings.push(finding("invalid-frontmatter", page.path, "The frontmatter is not valid YAML; Obsidian and Synapse cannot read it.", [], "error"));
      else if (!isPageType(page.type)) {
        findings.push(finding("invalid-frontmatter", page.path, page.type ? `"${page.type}" is not a page type (entity, concept, source, synthesis, comparison).` : "The page has no type in its frontmatter.", [], "error"));
      }
    }
    // A search for one letter or digit, not a copy of the page without the rest.
    if (on("empty-page") && !/[\p{L}\p{N}]/u.test(page.body)) findings.push(finding("empty-page", page.path, "The page has no text."));
    if (on("wrong-folder") && isPageType(page.type)) {
      const folder = `${snapshot.wikiFolder}/${TYPE_FOLDERS[page.type]}/`;
      if (!page.path.startsWith(folder)) {
        findings.push(finding("wrong-folder", page.path, `A ${page.type} page outside ${folder}.${notesLinkingTo(page.path, snapshot, resolver, true)}`, [{ kind: "move-to-type-folder", label: `Move it to ${folder}`, safe: false, params: { to: `${folder}${basenameOf(page.path)}.md` } }], "info"));
      }
    }
    if (on("missing-sources") && page.sources.length === 0 && !page.frontmatterInvalid) {
      findings.push(finding("missing-sources", page.path, "The page cites no sources, so nothing backs what it says."));
    }
    if (on("missing-source-note")) {
      for (const source of page.sources) {
        if (resolver.resolve(source)) continue;
        // A source is a note: never the page itself nor another page of the wiki, whatever its name.
        const moved = resolver.movedTo(source.replace(/^\[\[|\]\]$/g, ""), (file) => !isInFolder(file, snapshot.wikiFolder));
        const fixes: Fix[] = moved
          ? [{ kind: "retarget-link", label: `Cite ${named(moved)} instead`, safe: true, params: { source, to: moved } }]
          : [
              { kind: "retract-source", label: `Retract ${named(sourceTarget(source))}`, detail: "Its sections leave every page, and a page left empty goes", safe: false, params: { source } },
              { kind: "drop-missing-source", label: `Remove ${named(sourceTarget(source))} from sources`, safe: false, params: { source } },
            ];
        findings.push(finding("missing-source-note", page.path, `The source "${source}" no longer exists.`, fixes));
      }
    }
    if (on("stale") && inputs.sourceChanged) {
      for (const source of page.sources) {
        const note = resolver.resolve(source);
        if (note && !resolver.isExcluded(note) && inputs.sourceChanged(note) === true) {
          findings.push(finding("stale", page.path, `Its source ${named(note)} changed since the page was written.`, [{ kind: "reingest", label: `Re-ingest ${named(note)}`, safe: true, params: { note } }]));
        }
      }
    }
    if (on("dangling-link")) findings.push(...danglingLinks(page, resolver, names, snapshot));
    if (on("orphan") && !inbound.has(page.path)) {
      const fixes: Fix[] = [{ kind: "add-to-index", label: "List it in index.md", safe: true, params: {} }];
      const related = relatedPage(page, bySource, resolver, pagesByPath);
      if (related) fixes.push({ kind: "link-from-related", label: `Link it from ${named(related.path)}`, safe: false, params: { from: related.path } });
      findings.push(finding("orphan", page.path, "No page or note links to this page.", fixes, "info"));
    }
    if (on("duplicate")) {
      // One finding per group, on the page that stays, with a merge for each page it takes in: a
      // name shared by n pages (a killed run's pages synced twice) is one finding, not n² pairs.
      // Each page is taken in by one keeper: of its twins, the plainer name ("Ada" before "Ada (2)").
      const taken = [...twinsOf(page)].filter((twin) => keepsOver(page, twin) && [...twinsOf(twin)].every((other) => other === page || !keepsOver(other, page)));
      if (taken.length > 0) {
        // A twin with the page's own title differs from it only by its path: the title again says nothing.
        const twinName = (twin: PageRecord) => (nameKey(twin.title) === nameKey(page.title) ? twin.path : named(twin.path));
        const names = taken.map(twinName).join(", ");
        const what = taken.length === 1 ? `"${page.title}" and ${names} name the same thing.` : `"${page.title}" and ${taken.length} other pages name the same thing: ${names}.`;
        findings.push(
          finding(
            "duplicate",
            page.path,
            `${what}${taken.map((t) => notesLinkingTo(t.path, snapshot, resolver)).join("")}`,
            taken.map((twin) => ({ kind: "merge-duplicates", label: `Merge ${twinName(twin)} into this page`, safe: false, params: { keep: page.path, remove: twin.path } })),
          ),
        );
      }
    }
  }

  yield;
  if (snapshot.indexText !== null) {
    const index = indexPath(snapshot.wikiFolder);
    const drift = indexDrift(snapshot.indexText, snapshot.pages, resolve, indexed);
    if (drift.missing.length + drift.dangling.length > 0) {
      findings.push(finding("index", index, describeDrift(drift, pageNamer(snapshot)), [{ kind: "rebuild-index", label: "Bring index.md in step, keeping your own lines", safe: true, params: {} }]));
    }
  } else if (snapshot.pages.length > 0) {
    findings.push(finding("index", indexPath(snapshot.wikiFolder), "There is no index.md.", [{ kind: "rebuild-index", label: "Rebuild index.md", safe: true, params: {} }]));
  }
  return findings;
}
