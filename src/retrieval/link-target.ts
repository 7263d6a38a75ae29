/**
 * Where a wikilink leads, as the index sees it: through Obsidian's resolver in the plugin, through
 * the graph's own (link-resolution.ts) in the CLI, over the indexed notes and the excluded ones the
 * last sync listed.
 */
import type { GraphIndex, LinkResolver } from "./graph-index";

/**
 * Only "missing" is a dangling link: a note in an excluded folder exists (the user can open it),
 * it is just never indexed, embedded or returned.
 */
export type LinkTarget =
  /** A note the index holds. */
  | { readonly kind: "indexed"; readonly path: string }
  /** A note that exists but is never indexed: in an excluded folder, or the wiki's index.md or log.md. */
  | { readonly kind: "excluded"; readonly path: string }
  /** A file that exists but is no note of the index (an image, a PDF, a canvas): Obsidian's resolver sees these. */
  | { readonly kind: "file"; readonly path: string }
  | { readonly kind: "missing" };

const MISSING: LinkTarget = Object.freeze({ kind: "missing" });

export interface LinkWorld {
  /** Obsidian's resolver (it sees every file), or none: the graph's own. */
  readonly resolver: LinkResolver | undefined;
  /** The built-in resolution over the indexed and the unindexed notes (the graph, or the main thread's copy of its names). */
  readonly graph: Pick<GraphIndex, "locate">;
  indexed(path: string): boolean;
  excluded(path: string): boolean;
}

export function linkTargetOf(target: string, from: string, world: LinkWorld): LinkTarget {
  if (world.resolver) {
    const path = world.resolver.resolve(target, from);
    if (path === null) return MISSING;
    if (world.indexed(path)) return Object.freeze({ kind: "indexed", path });
    return Object.freeze({ kind: world.excluded(path) ? "excluded" : "file", path });
  }
  const path = world.graph.locate(target, from);
  if (path === null) return MISSING;
  return Object.freeze({ kind: world.indexed(path) ? "indexed" : "excluded", path });
}
