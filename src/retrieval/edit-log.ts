/**
 * Which notes were written or removed since a note's preparation began (note-preparation.ts): the
 * commit refuses a preparation that an edit overtook, so a note awaited meanwhile (the worker asks
 * the main thread whether it is still current) never brings an older text back.
 */

/** Edits remembered; past this the record is cleared, and preparations begun before are stale. */
const EDITS_REMEMBERED = 4096;

/** Which note was written or removed after a preparation began (a note's edit count, bounded). */
export class EditLog {
  private count = 0;
  private readonly at = new Map<string, number>();
  /** Edits up to this one may be forgotten. */
  private forgottenUpTo = 0;

  /** The stamp of a preparation beginning now. */
  stamp(): number {
    return this.count;
  }

  edited(path: string): void {
    if (this.at.size >= EDITS_REMEMBERED) {
      this.at.clear();
      this.forgottenUpTo = this.count;
    }
    this.count += 1;
    this.at.set(path, this.count);
  }

  /** Was `path` written or removed since `stamp` (or might it have been: the record was cleared since)? */
  since(path: string, stamp: number): boolean {
    return stamp < this.forgottenUpTo || (this.at.get(path) ?? 0) > stamp;
  }
}
