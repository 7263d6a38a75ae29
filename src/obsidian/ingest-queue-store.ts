/**
 * The plugin's ingest queue as it survives a restart (`queue.json` in the plugin's StateStore):
 * the notes queued and not yet finished, and the notes whose ingest failed, each with its reason.
 * Written whenever a note is added or finishes, so closing Obsidian in the middle of a folder of
 * 300 notes loses nothing: the next start resumes the rest (see IngestService.resume).
 *
 * Like the source registry, it is a to-do list, never the only copy of anything: an unreadable file
 * reads as empty (with a warning), so the worst case is a note the user queues again.
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
  /** Writes run one after another, each writing the state as it is when it runs. */
  private writing: Promise<void> = Promise.resolve();
  /** The last write's failure, kept so a caller can say so once; null when the last write succeeded. */
  lastWriteError: string | null = null;

  constructor(
    private readonly store: StateStore,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Reads queue.json. Returns a warning when the file was there but unreadable (then nothing is known). */
  async load(): Promise<string | null> {
    const text = await this.store.read(QUEUE_KEY).catch(() => null);
    if (text === null) return null;
    let parsed: ReturnType<typeof QueueFileSchema.safeParse>;
    try {
      parsed = QueueFileSchema.safeParse(JSON.parse(text));
    } catch {
      return "The saved ingest queue could not be read (not JSON); it was started afresh.";
    }
    if (!parsed.success) return "The saved ingest queue was not in the expected shape; it was started afresh.";
    // Anything queued or finished since start-up, before this read, comes after what was saved.
    const since = new Set(this.failedNotes.map((n) => n.notePath));
    this.pendingNotes = dedupe([...parsed.data.pending, ...this.pendingNotes]);
    this.failedNotes = [...parsed.data.failed.filter((n) => !since.has(n.notePath)), ...this.failedNotes];
    return null;
  }

  get pending(): readonly QueuedNote[] {
    return this.pendingNotes;
  }

  get failed(): readonly FailedNote[] {
    return this.failedNotes;
  }

  /** Records notes as queued (a note queued twice is kept once, forced if either asked for it). */
  add(notes: readonly QueuedNote[]): Promise<void> {
    this.pendingNotes = dedupe([...this.pendingNotes, ...notes]);
    return this.save();
  }

  /**
   * A note is done with: gone from the queue, and from the failed list unless it failed again
   * (`reason`), in which case it is listed there with the new reason.
   */
  finish(notePath: string, reason: string | null): Promise<void> {
    this.pendingNotes = this.pendingNotes.filter((n) => n.notePath !== notePath);
    this.failedNotes = this.failedNotes.filter((n) => n.notePath !== notePath);
    if (reason !== null) this.failedNotes.push({ notePath, reason, at: new Date(this.now()).toISOString() });
    return this.save();
  }

  /** Takes the failed notes off their list (to queue them again) and returns them. */
  takeFailed(): Promise<FailedNote[]> {
    const taken = this.failedNotes;
    this.failedNotes = [];
    return this.save().then(() => taken);
  }

  /** Resolves once every write started so far has finished. */
  settled(): Promise<void> {
    return this.writing;
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
