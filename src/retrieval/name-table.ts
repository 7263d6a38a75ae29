/**
 * Indexed paths by the key of their file name (without `.md`, compared as Obsidian compares names),
 * so "is there a note called X" costs one lookup.
 */
import { nameKey } from "../core/unicode";
import { noteNameKey } from "./link-resolution";

export class NameTable {
  private readonly byName = new Map<string, Set<string>>();

  add(path: string): void {
    const key = nameOf(path);
    this.byName.set(key, (this.byName.get(key) ?? new Set()).add(path));
  }

  remove(path: string): void {
    const key = nameOf(path);
    const paths = this.byName.get(key);
    paths?.delete(path);
    if (paths?.size === 0) this.byName.delete(key);
  }

  /** The paths whose file name is `basename`, sorted. */
  pathsNamed(basename: string): readonly string[] {
    return [...(this.byName.get(nameKey(basename)) ?? [])].sort();
  }
}

/** The graph's key of a note's name: the same as nameKey of the file name, sooner for ASCII names. */
const nameOf = noteNameKey;
