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
import { PATH_GONE, PATH_INDEXED, type CatalogDelta } from "./protocol";

export class CatalogMirror {
  private readonly places = new Map<string, number>();
  /** By name key: the paths so named, indexed or not. */
  private readonly byName = new Map<string, Set<string>>();

  /** @param resolver Obsidian's resolver, on the main thread; without one, links resolve as the index resolves them (link-resolution.ts). */
  constructor(private readonly resolver?: LinkResolver) {}

  apply(delta: CatalogDelta): void {
    const paths = delta.paths.split("\u0000");
    for (let i = 0; i < paths.length; i++) {
      const path = paths[i] as string;
      const place = delta.places[i] ?? PATH_GONE;
      const name = noteNameKey(path);
      if (place === PATH_GONE) {
        this.places.delete(path);
        const named = this.byName.get(name);
        named?.delete(path);
        if (named?.size === 0) this.byName.delete(name);
        continue;
      }
      this.places.set(path, place);
      const named = this.byName.get(name);
      if (named) named.add(path);
      else this.byName.set(name, new Set([path]));
    }
  }

  indexed(path: string): boolean {
    return this.places.get(path) === PATH_INDEXED;
  }

  /** Indexed notes whose file name (without `.md`) is `basename`, sorted, as the index's graph answers. */
  pathsNamed(basename: string): readonly string[] {
    return [...(this.byName.get(nameKey(basename)) ?? [])].filter((path) => this.indexed(path)).sort();
  }

  linkTarget(target: string, from: string): LinkTarget {
    return linkTargetOf(target, from, {
      resolver: this.resolver,
      graph: { locate: (t, f) => pickTarget(t, f, shortestFirst(this.byName.get(targetNameKey(t)) ?? [])) },
      indexed: (path) => this.indexed(path),
      // What the worker told as present but unindexed; with Obsidian's resolver any other path is a file.
      excluded: (path) => this.places.has(path) && !this.indexed(path),
    });
  }
}
