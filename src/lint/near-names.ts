/**
 * The names a mistyped link may have meant (file names and aliases), keyed once and grouped by the
 * length of their key: a name whose length differs from the link's by more than the edit distance
 * allowed cannot be within it, so a link is compared with the few names of about its length instead
 * of every name of the vault (10,000 at 5,000 pages, each keyed again for every dangling link).
 */
import { nameKey } from "../core/unicode";
import { boundedEditDistance } from "./edit-distance";

interface KeyedName {
  readonly name: string;
  readonly key: string;
  /** Its place in the list given: of names equally near, the first is chosen. */
  readonly order: number;
}

export class NearNames {
  private readonly byLength = new Map<number, KeyedName[]>();
  private size = 0;

  constructor(names: readonly string[] = []) {
    for (const name of names) this.add(name);
  }

  /** Adds a name after those added before it (a caller may add thousands a few at a time). */
  add(name: string): void {
    const key = nameKey(name);
    const entry = { name, key, order: this.size++ };
    const same = this.byLength.get(key.length);
    if (same) same.push(entry);
    else this.byLength.set(key.length, [entry]);
  }

  /**
   * The closest name within a small edit distance (1 to 3, by the target's length) that `accept`
   * takes (all by default), the first of the list given among equals; null when none is that close.
   */
  closest(target: string, accept: (name: string) => boolean = () => true): string | null {
    const key = nameKey(target);
    const max = Math.max(1, Math.min(3, Math.floor(key.length / 5)));
    let best: { name: string; d: number; order: number } | null = null;
    for (let length = key.length - max; length <= key.length + max; length++) {
      for (const candidate of this.byLength.get(length) ?? []) {
        const d = boundedEditDistance(key, candidate.key, max);
        if (d > max || (best && (d > best.d || (d === best.d && candidate.order > best.order)))) continue;
        if (accept(candidate.name)) best = { name: candidate.name, d, order: candidate.order };
      }
    }
    return best?.name ?? null;
  }
}
