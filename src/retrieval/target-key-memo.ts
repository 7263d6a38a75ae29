/**
 * Name keys of link targets, each worked out once. Loading a vault's shards registers hundreds of
 * thousands of links written to a few thousand names (the same popular notes, the same targets in
 * many notes), and cleaning, normalising and case-folding a target costs far more than looking its
 * key up. One memo lives for one load, so it holds no target longer than that. It also keeps, per
 * target, the graph's array of the notes linking to that name, so that registering a link costs
 * one lookup, not two (the key's, then its group's) — while the groups lose no path, which a load
 * never does; after any removal the arrays are looked up afresh.
 */
import { targetNameKey } from "./link-resolution";
import type { PathGroups } from "./path-groups";

export class TargetKeyMemo {
  private readonly keys = new Map<string, string>();
  private readonly groups = new Map<string, string[]>();
  private owner: PathGroups | null = null;
  private generation = -1;

  of(target: string): string {
    let key = this.keys.get(target);
    if (key === undefined) {
      key = targetNameKey(target);
      this.keys.set(target, key);
    }
    return key;
  }

  /** The array of `inbound` that `target`'s links are appended to, or null when that group is a Set. */
  groupOf(target: string, inbound: PathGroups): string[] | null {
    if (inbound !== this.owner || inbound.generation !== this.generation) {
      this.groups.clear();
      this.owner = inbound;
      this.generation = inbound.generation;
    }
    let group = this.groups.get(target);
    if (group === undefined) {
      const found = inbound.appendable(this.of(target));
      if (!found) return null;
      this.groups.set(target, found);
      group = found;
    }
    return group;
  }
}
