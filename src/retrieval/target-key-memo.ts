/**
 * Name keys of link targets, each worked out once. Loading a vault's shards registers hundreds of
 * thousands of links written to a few thousand names (the same popular notes, the same targets in
 * many notes), and cleaning, normalising and case-folding a target costs far more than looking its
 * key up. One memo lives for one load, so it holds no target longer than that.
 */
import { targetNameKey } from "./link-resolution";

export class TargetKeyMemo {
  private readonly keys = new Map<string, string>();

  of(target: string): string {
    let key = this.keys.get(target);
    if (key === undefined) {
      key = targetNameKey(target);
      this.keys.set(target, key);
    }
    return key;
  }
}
