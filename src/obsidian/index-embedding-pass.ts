/**
 * The background embedding of one opened index: passes that embed the chunks of new and changed
 * notes after the text index has them (one at a time; one asked for while another runs follows
 * it), and what happens when the embedding server fails. Then vector search is off — one notice —
 * and search goes on from text and links; the server is asked again after 30 s, 2 min, then every
 * 10 min, and once it answers and the notes changed meanwhile are embedded, vector search is back
 * on — one more notice. A failure during a search (the query's embedding) counts the same.
 */
import type { SearchIndex, VectorControl } from "../retrieval";
import { embeddingStatus } from "./index-status";

/** Runs `run` once after `ms`; returns how to cancel it (`window.setTimeout` in Obsidian, a fake clock in tests). */
export type Schedule = (ms: number, run: () => void) => () => void;

/** Waits before asking a failed embedding server again: the last one repeats. */
export const RETRY_DELAYS_MS: readonly number[] = [30_000, 120_000, 600_000];

export const BACK_ON_MESSAGE = "Vector search is back on: the embedding server answers again.";

export interface EmbeddingPassOptions {
  readonly index: SearchIndex;
  readonly vectors: VectorControl;
  /** Aborted when the index closes: the pass stops between requests, no retry follows. */
  readonly signal: AbortSignal;
  readonly status: (text: string) => void;
  /** Notes got vectors: write their shards soon. */
  readonly changed: () => void;
  /** Tells the user (a notice); the caller drops messages of a session no longer current. */
  readonly notify: (message: string) => void;
  readonly onError: (error: unknown) => void;
  readonly schedule: Schedule;
  readonly retryDelaysMs?: readonly number[];
}

export class EmbeddingPass {
  private running: Promise<void> | null = null;
  private again = false;
  /** Vector search is off and the user was told; cleared once a retry's pass succeeds. */
  private off = false;
  /** Retries since it went off: which delay comes next. */
  private retries = 0;
  private cancelRetry: (() => void) | null = null;

  constructor(private readonly options: EmbeddingPassOptions) {
    options.vectors.onFailure = (message) => this.failed(message);
  }

  /** Embeds what is pending now, or after the running pass; nothing while the server is off (the retry will). */
  request(): void {
    if (this.options.signal.aborted || !this.options.vectors.active) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.start(async () => {
      await this.passes();
    });
  }

  /** Settles when no pass or retry is running (tests wait on it). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** The index closes: no more retries (the running pass stops by the signal). */
  stop(): void {
    this.cancelRetry?.();
    this.cancelRetry = null;
    this.options.vectors.onFailure = null;
  }

  private start(work: () => Promise<void>): void {
    const { signal } = this.options;
    const running = work()
      .catch((error: unknown) => {
        this.options.status("");
        if (!signal.aborted) this.options.onError(error);
      })
      .finally(() => {
        if (this.running === running) this.running = null;
      });
    this.running = running;
  }

  /** Passes until nothing more was asked for; says whether the last one finished without a failure. */
  private async passes(): Promise<boolean> {
    const { index, signal } = this.options;
    do {
      this.again = false;
      const result = await index.embedPending({ signal, progress: (progress) => this.options.status(embeddingStatus(progress)) });
      this.options.status("");
      if (result.notes > 0) this.options.changed();
      if (result.error) return false;
    } while (this.again && !signal.aborted);
    return true;
  }

  /** An embedding request failed (in a pass, a search or a retry): one notice, then retries. */
  private failed(message: string): void {
    if (!this.off) {
      this.off = true;
      this.options.notify(message);
    }
    if (this.cancelRetry || this.options.signal.aborted) return;
    const delays = this.options.retryDelaysMs ?? RETRY_DELAYS_MS;
    const delay = delays[Math.min(this.retries, delays.length - 1)] ?? 0;
    this.retries += 1;
    this.cancelRetry = this.options.schedule(delay, () => {
      this.cancelRetry = null;
      this.retry();
    });
  }

  private retry(): void {
    const before = this.running;
    // Running at once (not after a tick), so `idle` waits for the retry from the moment it is due.
    this.start(async () => {
      await before;
      if (this.options.signal.aborted) return;
      // A failure here reaches `failed`, which schedules the next retry.
      if (!(await this.options.vectors.reconnect(this.options.signal))) return;
      if (!(await this.passes())) return;
      this.off = false;
      this.retries = 0;
      this.options.notify(BACK_ON_MESSAGE);
    });
  }
}
