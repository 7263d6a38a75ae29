/**
 * Paths grouped by a key, for the graph's tables: the notes with a link written to a name, the
 * notes of a name, the notes with a tag. A load registers hundreds of thousands of links into a
 * few thousand names, so each group starts as an array a path is appended to (no hashing, a
 * quarter of a Set's memory) and becomes a Set the first time a path leaves it (an edit, where
 * finding a path pays off).
 */
import { detach } from "../core/detach";

export class PathGroups {
  private readonly groups = new Map<string, string[] | Set<string>>();
  /** Counts removals: an array `appendable` handed out is still its group's while this is unchanged. */
  private removals = 0;

  get generation(): number {
    return this.removals;
  }

  /**
   * Puts `path` in the group `key`. The graph adds a note's keys together, once any earlier
   * registration of the note was removed (GraphIndex.set), so a path already in a group's array
   * can only be its last entry.
   */
  add(key: string, path: string): void {
    const group = this.groups.get(key);
    // Detached: a key cut from a longer string (a target unpacked from a note's links) would keep it alive.
    if (group === undefined) this.groups.set(detach(key), [path]);
    else if (Array.isArray(group)) {
      if (group[group.length - 1] !== path) group.push(path);
    } else group.add(path);
  }

  /**
   * The group `key` as the array its paths are appended to (made when there is none), or null when
   * it became a Set. For a load that appends to the same groups again and again: the caller appends
   * as `add` does, and holds the array only while `generation` is unchanged (a removal may replace it).
   */
  appendable(key: string): string[] | null {
    const group = this.groups.get(key);
    if (group === undefined) {
      const created: string[] = [];
      this.groups.set(detach(key), created);
      return created;
    }
    return Array.isArray(group) ? group : null;
  }

  remove(key: string, path: string): void {
    const found = this.groups.get(key);
    if (found === undefined) return;
    this.removals += 1;
    const group = Array.isArray(found) ? new Set(found) : found;
    group.delete(path);
    if (group.size === 0) this.groups.delete(key);
    else if (group !== found) this.groups.set(key, group);
  }

  /** The paths of a group, each once, in no particular order. */
  get(key: string): Iterable<string> {
    return this.groups.get(key) ?? [];
  }
}
