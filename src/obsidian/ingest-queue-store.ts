/**
 * The plugin's ingest queue as it survives a restart (`queue.json` in the plugin's StateStore):
 * the notes queued and not yet finished, and the notes whose ingest failed, each with its reason.
 * Written whenever a note is added or finishes, so closing Obsidian in the middle of a folder of
 * 300 notes loses nothing: the next start resumes the rest (see IngestService.resume).
 *
 * Like the source registry, it is a to-do list, never the only copy of anything: an unreadable file
 * reads as empty (with a warning), so the worst case is a note the user queues again.
 * The file is read once, and every change waits for that read: a note queued before the plugin
 * resumed (an ingest started before the layout was ready) never overwrites the previous session's.
 */
import * as z from "zod";
import type { StateStore } from "../vault/state-store";

export const QUEUE_KEY = "queue.json";

const QueuedNoteSchema = z.object({
  notePath: z.string().min(1),
  /** Ingest even when the note is unchanged since its last ingest ("re-ingest anyway"). */
  force: z.boolean().default(false),
});
export type QueuedNote = z.infer<typeof QueuedNoteSchema>;

const FailedNoteSchema = z.object({
  notePath: z.string().min(1),
  /** What went wrong, one sentence a person can act on. */
  reason: z.string(),
  /** ISO timestamp of the failure. */
  at: z.string(),
});
export type FailedNote = z.infer<typeof FailedNoteSchema>;

const QueueFileSchema = z.object({
  version: z.literal(1),
  pending: z.array(QueuedNoteSchema).default([]),
  failed: z.array(FailedNoteSchema).default([]),
});
type QueueFile = z.infer<typeof QueueFileSchema>;

export class QueueStore {
  private pendingNotes: QueuedNote[] = [];
  private failedNotes: FailedNote[] = [];
  /** The one read of queue.json; every change waits for it, so none can overwrite what it holds. */
  private loading: Promise<string | null> | null = null;
  /** Set when that read has finished: from then on a change applies at once, as it is made. */
  private loaded = false;
  /** Changes made before the read finished and not yet applied. */
  private waiting = 0;
  /** Writes run one after another, each writing the state as it is when it runs. */
  private writing: Promise<void> = Promise.resolve();
  /** The last write's failure, kept so a caller can say so once; null when the last write succeeded. */
  lastWriteError: string | null = null;

  constructor(
    private readonly store: StateStore,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /**
   * Reads queue.json, once: later calls (and every change, which waits for it) share that read.
   * Returns a warning when the file was there but unreadable (then nothing is known).
   */
  load(): Promise<string | null> {
    this.loading ??= this.read();
    return this.loading;
  }

  private async read(): Promise<string | null> {
    try {
      return await this.parse();
    } finally {
      this.loaded = true;
    }
  }

  private async parse(): Promise<string | null> {
    const text = await this.store.read(QUEUE_KEY).catch(() => null);
    if (text === null) return null;
    let parsed: ReturnType<typeof QueueFileSchema.safeParse>;
    try {
      parsed = QueueFileSchema.safeParse(JSON.parse(text));
    } catch {
      return "The saved ingest queue could not be read (not JSON); it was started afresh.";
    }
    if (!parsed.success) return "The saved ingest queue was not in the expected shape; it was started afresh.";
    this.pendingNotes = dedupe(parsed.data.pending);
    this.failedNotes = parsed.data.failed;
    return null;
  }

  /** What is known so far: empty until the first read has finished (`load()`). */
  get pending(): readonly QueuedNote[] {
    return this.pendingNotes;
  }

  get failed(): readonly FailedNote[] {
    return this.failedNotes;
  }

  /** Records notes as queued (a note queued twice is kept once, forced if either asked for it). */
  add(notes: readonly QueuedNote[]): Promise<void> {
    return this.change(() => {
      this.pendingNotes = dedupe([...this.pendingNotes, ...notes]);
    });
  }

  /**
   * A note is done with: gone from the queue, and from the failed list unless it failed again
   * (`reason`), in which case it is listed there with the new reason.
   */
  finish(notePath: string, reason: string | null): Promise<void> {
    return this.change(() => {
      this.pendingNotes = this.pendingNotes.filter((n) => n.notePath !== notePath);
      this.failedNotes = this.failedNotes.filter((n) => n.notePath !== notePath);
      if (reason !== null) this.failedNotes.push({ notePath, reason, at: new Date(this.now()).toISOString() });
    });
  }

  /** Drops one note from the failed list, as when the user dismisses it; its note is untouched. */
  dismiss(notePath: string): Promise<void> {
    return this.change(() => {
      this.failedNotes = this.failedNotes.filter((n) => n.notePath !== notePath);
    });
  }

  /** Takes the failed notes off their list (to queue them again) and returns them. */
  async takeFailed(): Promise<FailedNote[]> {
    let taken: FailedNote[] = [];
    await this.change(() => {
      taken = this.failedNotes;
      this.failedNotes = [];
    });
    return taken;
  }

  /** Resolves once every change and write started so far has finished. */
  async settled(): Promise<void> {
    await this.load();
    let seen: Promise<void>;
    do {
      seen = this.writing;
      await seen;
    } while (seen !== this.writing);
  }

  /** Applies a change once queue.json has been read (changes apply in call order), then saves. */
  private change(apply: () => void): Promise<void> {
    const now = () => {
      apply();
      return this.save();
    };
    if (this.loaded && this.waiting === 0) return now();
    // Queued behind the read, and behind the changes already waiting for it.
    this.waiting += 1;
    return this.load().then(() => {
      this.waiting -= 1;
      return now();
    });
  }

  private save(): Promise<void> {
    this.writing = this.writing.then(async () => {
      const file: QueueFile = { version: 1, pending: this.pendingNotes, failed: this.failedNotes };
      try {
        await this.store.write(QUEUE_KEY, `${JSON.stringify(file, null, 2)}\n`);
        this.lastWriteError = null;
      } catch (error) {
        // The queue still runs from memory; only surviving a restart is lost.
        this.lastWriteError = error instanceof Error ? error.message : String(error);
      }
    });
    return this.writing;
  }
}

function dedupe(notes: readonly QueuedNote[]): QueuedNote[] {
  const byPath = new Map<string, QueuedNote>();
  for (const note of notes) {
    const seen = byPath.get(note.notePath);
    byPath.set(note.notePath, { notePath: note.notePath, force: note.force || (seen?.force ?? false) });
  }
  return [...byPath.values()];
}
