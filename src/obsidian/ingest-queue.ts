/**
 * One ingest at a time per vault; the others wait their turn. Two ingests writing the same wiki
 * at once could both decide a page is new, or interleave index.md lines, so they never overlap.
 * Asking again for a note that is already running or waiting joins that run instead of adding a
 * second one. Cancelling stops the running ingest and drops what waits in the same batch.
 */
import type { ProgressEvent } from "../core/run-context";
import { applyProgress, startProgress, type RunProgress } from "./progress";

export interface QueueJob<R> {
  /** Vault path of the note: one run per note at a time. */
  readonly key: string;
  /** Jobs queued together (a folder) share a group, so one cancel stops the batch. */
  readonly group: string;
  readonly run: (signal: AbortSignal, progress: (event: ProgressEvent) => void) => Promise<R>;
}

export type JobOutcome<R> =
  | { readonly status: "done"; readonly result: R }
  /** Dropped before it started (cancelled batch, plugin unloaded). */
  | { readonly status: "cancelled" }
  /** The job threw: a bug, since ingests report expected failures instead of throwing. */
  | { readonly status: "failed"; readonly error: unknown };

export interface QueueSnapshot {
  readonly running: RunProgress | null;
  readonly queued: number;
}

interface Entry<R> {
  readonly job: QueueJob<R>;
  readonly controller: AbortController;
  readonly done: Promise<JobOutcome<R>>;
  readonly settle: (outcome: JobOutcome<R>) => void;
}

export class IngestQueue<R> {
  private readonly waiting: Entry<R>[] = [];
  private current: Entry<R> | null = null;
  private progress: RunProgress | null = null;
  private readonly listeners = new Set<(snapshot: QueueSnapshot) => void>();
  private idleWaiters: (() => void)[] = [];

  enqueue(job: QueueJob<R>): Promise<JobOutcome<R>> {
    const existing = this.current?.job.key === job.key ? this.current : this.waiting.find((e) => e.job.key === job.key);
    if (existing) return existing.done;
    let settle!: (outcome: JobOutcome<R>) => void;
    const done = new Promise<JobOutcome<R>>((resolve) => (settle = resolve));
    this.waiting.push({ job, controller: new AbortController(), done, settle });
    this.emit();
    void this.pump();
    return done;
  }

  /** True while an ingest runs or waits. */
  get busy(): boolean {
    return this.current !== null || this.waiting.length > 0;
  }

  /** True when this note is running or waiting. */
  has(key: string): boolean {
    return this.current?.job.key === key || this.waiting.some((e) => e.job.key === key);
  }

  get runningKey(): string | null {
    return this.current?.job.key ?? null;
  }

  snapshot(): QueueSnapshot {
    return { running: this.progress, queued: this.waiting.length };
  }

  /** Stops the running ingest and drops the jobs of its batch that have not started. */
  cancelRunning(): boolean {
    const entry = this.current;
    if (!entry) return false;
    this.drop((e) => e.job.group === entry.job.group);
    entry.controller.abort();
    return true;
  }

  /** Stops everything (the plugin is unloading). */
  cancelAll(): void {
    this.drop(() => true);
    this.current?.controller.abort();
  }

  /** Resolves once nothing runs or waits. */
  idle(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  subscribe(listener: (snapshot: QueueSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private drop(which: (entry: Entry<R>) => boolean): void {
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      const entry = this.waiting[i] as Entry<R>;
      if (which(entry)) {
        this.waiting.splice(i, 1);
        entry.settle({ status: "cancelled" });
      }
    }
    this.emit();
  }

  private async pump(): Promise<void> {
    if (this.current !== null) return;
    const entry = this.waiting.shift();
    if (!entry) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
      return;
    }
    this.current = entry;
    this.progress = startProgress(entry.job.key);
    this.emit();
    let outcome: JobOutcome<R>;
    try {
      const result = await entry.job.run(entry.controller.signal, (event) => {
        if (this.current !== entry || this.progress === null) return;
        this.progress = applyProgress(this.progress, event);
        this.emit();
      });
      outcome = { status: "done", result };
    } catch (error) {
      outcome = { status: "failed", error };
    }
    this.current = null;
    this.progress = null;
    this.emit();
    entry.settle(outcome);
    await this.pump();
  }

  private emit(): void {
    const snapshot = this.snapshot();
    for (const listener of this.listeners) listener(snapshot);
  }
}
