/**
 * The link graph: wikilinks, embeds and frontmatter `sources` as edges between notes, tags as
 * shared labels. Targets are kept as written and resolved when asked, the way Obsidian resolves a
 * link (link-resolution.ts: a path must match when the link has one; a bare name goes to the
 * shortest path; names compare NFC and case-folded), so a note created later is linked at once
 * without revisiting the notes that point at it. Notes that exist but are never indexed (excluded
 * folders) take part in resolution — a link Obsidian would send to one of them is no edge to another
 * note of the same name — but are never nodes.
 */
import { nameKey } from "../core/unicode";
import { detachAll } from "../core/detach";
import { retrievalError } from "./errors";
import { noteNameKey, pickTarget, shortestFirst, targetNameKey, type Candidate } from "./link-resolution";
import type { NoteLinks } from "./links";
import { packLinks, targetsOf, unpackLinks, type PackedLinks } from "./packed-links";
import { PathGroups } from "./path-groups";
import type { TargetKeyMemo } from "./target-key-memo";

export type Relation = "link" | "embed" | "source" | "backlink" | "tag";

export interface Neighbour {
  readonly path: string;
  readonly relation: Relation;
}

/** Resolves a link target to a note path; the plugin can hand in Obsidian's own resolver. */
export interface LinkResolver {
  resolve(target: string, from: string): string | null;
}

export class GraphIndex implements LinkResolver {
  /** Each note's links, packed (packed-links.ts): one string per note, not an object and arrays. */
  private readonly notes = new Map<string, PackedLinks>();
  /** By name key: the notes so named, nodes and others alike. */
  private readonly byName = new PathGroups();
  /** Notes that exist but are never indexed: they answer links, yet are no node. */
  private readonly others = new Set<string>();
  private readonly inbound = new PathGroups();
  private readonly tagged = new PathGroups();
  /** By name key: the notes so named, shortest path first (how a bare name resolves), built when asked. */
  private readonly candidates = new Map<string, readonly Candidate[]>();
  /**
   * By name key K: every note whose links resolve to a note named K, by that note's path, sorted —
   * built on first use, dropped when a note named K or a note linking to a K comes or goes. Only
   * with the built-in resolver, whose answers for K depend on nothing else; an outside resolver
   * (Obsidian's) is asked afresh every time.
   */
  private readonly backlinkTable = new Map<string, Map<string, readonly string[]>>();

  constructor(private readonly resolver: LinkResolver | null = null) {}

  get size(): number {
    return this.notes.size;
  }

  has(path: string): boolean {
    return this.notes.has(path);
  }

  linksOf(path: string): NoteLinks | undefined {
    const packed = this.notes.get(path);
    return packed === undefined ? undefined : unpackLinks(packed);
  }

  /** A note's links as the graph keeps them (what a shard stores). */
  packedLinksOf(path: string): PackedLinks | undefined {
    return this.notes.get(path);
  }

  /**
   * Records a note's links: packed ones (from a shard) as they are, others packed — or, when they
   * cannot be, copied detached (a target cut from a note would keep the note's whole text in
   * memory; a packed string is a fresh one). `keys`: a memo of target name keys, for registering
   * many notes at once (a load of shards).
   */
  set(path: string, found: PackedLinks, keys: TargetKeyMemo | null = null): void {
    this.remove(path);
    this.forgetOther(path);
    let packed = typeof found === "string" ? found : packLinks(found);
    if (typeof packed !== "string") packed = { links: detachAll(packed.links), embeds: detachAll(packed.embeds), tags: detachAll(packed.tags), sources: detachAll(packed.sources) };
    this.notes.set(path, packed);
    this.named(path, true);
    const links = unpackLinks(packed);
    for (const targets of [links.links, links.embeds, links.sources]) {
      for (const target of targets) {
        // A load's memo hands the group itself (one lookup); a path is in it once, as `add` keeps it.
        const group = keys ? keys.groupOf(target, this.inbound) : null;
        if (group) {
          if (group[group.length - 1] !== path) group.push(path);
        } else this.inbound.add(keys ? keys.of(target) : targetNameKey(target), path);
        // Nothing to drop while no backlink was asked for (a load): skipping saves a lookup per link.
        if (this.backlinkTable.size > 0) this.backlinkTable.delete(keys ? keys.of(target) : targetNameKey(target));
      }
    }
    for (const tag of links.tags) this.tagged.add(tag, path);
  }

  remove(path: string): void {
    const packed = this.notes.get(path);
    if (packed === undefined) return;
    this.notes.delete(path);
    this.named(path, false);
    const links = unpackLinks(packed);
    for (const target of targetsOf(links)) {
      const targetName = targetNameKey(target);
      this.inbound.remove(targetName, path);
      this.backlinkTable.delete(targetName);
    }
    for (const tag of links.tags) this.tagged.remove(tag, path);
  }

  /**
   * The vault's notes that exist but are never indexed (excluded folders, the wiki's index.md and
   * log.md), replacing those known before: links resolve to them as Obsidian would, never as edges.
   */
  setOthers(paths: Iterable<string>): void {
    for (const path of [...this.others]) this.forgetOther(path);
    for (const path of paths) this.addOther(path);
  }

  addOther(path: string): void {
    if (this.notes.has(path) || this.others.has(path)) return;
    this.others.add(path);
    this.named(path, true);
  }

  /** The files known to exist that are never nodes (excluded notes, index.md, log.md), as the last sync listed them. */
  otherPaths(): IterableIterator<string> {
    return this.others.values();
  }

  isOther(path: string): boolean {
    return this.others.has(path);
  }

  forgetOther(path: string): void {
    if (!this.others.delete(path)) return;
    this.named(path, false);
  }

  /** Adds or removes a note (node or other) under its name; how links to that name resolve may change. */
  private named(path: string, present: boolean): void {
    const name = noteNameKey(path);
    if (present) this.byName.add(name, path);
    else this.byName.remove(name, path);
    if (this.candidates.size > 0) this.candidates.delete(name);
    if (this.backlinkTable.size > 0) this.backlinkTable.delete(name);
  }

  /** Indexed notes whose file name (without `.md`) is `basename`, compared as Obsidian compares names, sorted. */
  notesNamed(basename: string): readonly string[] {
    return [...this.byName.get(nameKey(basename))].filter((path) => this.notes.has(path)).sort();
  }

  /** The indexed note a link leads to, or null: nowhere, or a note that is never indexed. */
  resolve(target: string, from: string): string | null {
    if (this.resolver) return this.resolver.resolve(target, from);
    const found = this.locate(target, from);
    return found !== null && this.notes.has(found) ? found : null;
  }

  /** The note a link leads to with the built-in resolver, indexed or not (the CLI's `linkTarget`). */
  locate(target: string, from: string): string | null {
    return pickTarget(target, from, this.namedShortestFirst(targetNameKey(target)));
  }

  private namedShortestFirst(name: string): readonly Candidate[] {
    let list = this.candidates.get(name);
    if (!list) {
      list = shortestFirst(this.byName.get(name));
      this.candidates.set(name, list);
    }
    return list;
  }

  /** The notes whose links, embeds or sources resolve to `path`, sorted. */
  backlinks(path: string): readonly string[] {
    const name = noteNameKey(path);
    let table = this.backlinkTable.get(name);
    if (!table) {
      table = this.resolveLinksTo(name);
      if (!this.resolver) this.backlinkTable.set(name, table);
    }
    return table.get(path) ?? [];
  }

  /** Resolves, once each, the links written to a name: only those can resolve to a note of that name. */
  private resolveLinksTo(name: string): Map<string, readonly string[]> {
    const found = new Map<string, string[]>();
    for (const source of this.inbound.get(name)) {
      const links = this.notes.get(source);
      if (links === undefined) continue;
      const reached = new Set<string>();
      for (const t of targetsOf(links)) {
        if (targetNameKey(t) !== name) continue;
        const to = this.resolve(t, source);
        if (to && !reached.has(to)) {
          reached.add(to);
          const list = found.get(to);
          if (list) list.push(source);
          else found.set(to, [source]);
        }
      }
    }
    for (const list of found.values()) list.sort();
    return found;
  }

  /** Notes one hop away, each once, by the strongest relation, in a stable order. */
  neighbours(path: string, options: { tags?: boolean } = {}): readonly Neighbour[] {
    checkPath(path);
    const packed = this.notes.get(path);
    if (packed === undefined) return Object.freeze([]);
    const links = unpackLinks(packed);
    const out = new Map<string, Relation>();
    const add = (p: string | null, relation: Relation) => {
      if (p && p !== path && !out.has(p)) out.set(p, relation);
    };
    for (const t of links.links) add(this.resolve(t, path), "link");
    for (const t of links.embeds) add(this.resolve(t, path), "embed");
    for (const t of links.sources) add(this.resolve(t, path), "source");
    for (const source of this.backlinks(path)) add(source, "backlink");
    if (options.tags) {
      for (const tag of links.tags) for (const p of [...this.tagged.get(tag)].sort()) add(p, "tag");
    }
    return Object.freeze([...out].map(([p, relation]) => Object.freeze({ path: p, relation })));
  }

  /** Notes carrying a tag (without `#`, any case), sorted. */
  withTag(tag: string): readonly string[] {
    return Object.freeze([...this.tagged.get(tag.replace(/^#/, "").toLowerCase())].sort());
  }
}

export function checkPath(path: string): void {
  if (typeof path !== "string" || path.trim() === "") throw retrievalError("A graph query needs the path of a note.");
}
