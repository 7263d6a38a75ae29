/**
 * The graph's inbound table: by name key, the notes with a link written to that name. A load
 * registers hundreds of thousands of links into a few thousand names, so each name starts as an
 * array that a note is appended to (no hashing, a quarter of a Set's memory) and becomes a Set the
 * first time a note leaves it (an edit, where lookups by path pay off).
 */
export class InboundTable {
  private readonly byName = new Map<string, string[] | Set<string>>();

  /**
   * Records that `path` links to `name`. A note's names are added together, after any earlier
   * registration of it was removed (GraphIndex.set), so a note already in a name's array can only
   * be its last entry.
   */
  add(name: string, path: string): void {
    const sources = this.byName.get(name);
    if (sources === undefined) this.byName.set(name, [path]);
    else if (Array.isArray(sources)) {
      if (sources[sources.length - 1] !== path) sources.push(path);
    } else sources.add(path);
  }

  remove(name: string, path: string): void {
    const found = this.byName.get(name);
    if (found === undefined) return;
    const sources = Array.isArray(found) ? new Set(found) : found;
    sources.delete(path);
    if (sources.size === 0) this.byName.delete(name);
    else if (sources !== found) this.byName.set(name, sources);
  }

  /** The notes linking to `name`, each once, in no particular order. */
  sources(name: string): Iterable<string> {
    return this.byName.get(name) ?? [];
  }
}
