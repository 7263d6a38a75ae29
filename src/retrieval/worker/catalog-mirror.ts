/**
 * The main thread's copy of the worker index's names: which paths are indexed and which exist but
 * are never indexed, kept from the catalogue deltas every reply carries. An ingest asks its
 * catalogue "which notes are called X?" and "does this link lead anywhere?" synchronously, many
 * times a run; these answer at once, as the index's own tables would.
 */
import { nameKey } from "../../core/unicode";
import type { LinkResolver } from "../graph-index";
import { noteNameKey, pickTarget, shortestFirst, targetNameKey } from "../link-resolution";
import { linkTargetOf, type LinkTarget } from "../link-target";
import type { CatalogDelta } from "./protocol";
import { PATH_GONE, PATH_INDEXED } from "./protocol-names";

export class CatalogMirror {
  private readonly places = new Map<string, number>();
  /**
   * By name key: the path so named, or the paths when several are, indexed or not. A path alone is
   * kept as itself: a Set per name made a 10,000-note delta cost tens of milliseconds here.
   */
  private readonly byName = new Map<string, string | string[]>();

  /** @param resolver Obsidian's resolver, on the main thread; without one, links resolve as the index resolves them (link-resolution.ts). */
  constructor(private readonly resolver?: LinkResolver) {}

  apply(delta: CatalogDelta): void {
    const paths = delta.paths.split("\u0000");
    for (let i = 0; i < paths.length; i++) {
      const path = paths[i] as string;
      const place = delta.places[i] ?? PATH_GONE;
      const name = noteNameKey(path);
      if (place === PATH_GONE) {
        if (this.places.delete(path)) this.unname(name, path);
        continue;
      }
      if (!this.places.has(path)) this.name(name, path);
      this.places.set(path, place);
    }
  }

  private name(name: string, path: string): void {
    const named = this.byName.get(name);
    if (named === undefined) this.byName.set(name, path);
    else if (typeof named === "string") this.byName.set(name, [named, path]);
    else named.push(path);
  }

  private unname(name: string, path: string): void {
    const named = this.byName.get(name);
    if (named === path) this.byName.delete(name);
    else if (Array.isArray(named)) {
      const rest = named.filter((p) => p !== path);
      this.byName.set(name, rest.length === 1 ? (rest[0] as string) : rest);
    }
  }

  private named(name: string): readonly string[] {
    const named = this.byName.get(name);
    return named === undefined ? [] : typeof named === "string" ? [named] : named;
  }

  indexed(path: string): boolean {
    return this.places.get(path) === PATH_INDEXED;
  }

  /** Indexed notes whose file name (without `.md`) is `basename`, sorted, as the index's graph answers. */
  pathsNamed(basename: string): readonly string[] {
    return this.named(nameKey(basename)).filter((path) => this.indexed(path)).sort();
  }

  linkTarget(target: string, from: string): LinkTarget {
    return linkTargetOf(target, from, {
      resolver: this.resolver,
      graph: { locate: (t, f) => pickTarget(t, f, shortestFirst(this.named(targetNameKey(t)))) },
      indexed: (path) => this.indexed(path),
      // What the worker told as present but unindexed; with Obsidian's resolver any other path is a file.
      excluded: (path) => this.places.has(path) && !this.indexed(path),
    });
  }
}
