/**
 * Everything one run carries besides its input: how it is stopped (abort signal, absolute
 * deadline), where usage goes, what it is about, and who listens to its progress.
 */
import { SynapseError } from "./errors";
import type { SourceNote } from "./schemas";
import { UsageAccumulator } from "./usage";
import type { RunLogger } from "./log";

export type Phase = "reading" | "analysing" | "generating" | "validating" | "delegating" | "writing";

export type ProgressEvent =
  | { readonly type: "phase"; readonly phase: Phase; readonly attempt?: number; readonly maxAttempts?: number }
  | { readonly type: "usage"; readonly inputTokens: number; readonly outputTokens: number }
  | { readonly type: "retry"; readonly attempt: number; readonly delayMs: number; readonly reason: string }
  /**
   * Free-form activity: an agentic backend's tool call or file written, or a streamed reply's pace
   * (`tokens`: output tokens so far and tokens per second, so a slow local model shows it is working).
   */
  | { readonly type: "activity"; readonly message: string; readonly tokens?: { readonly output: number; readonly perSecond: number } };

/** A page an agentic backend read itself while answering (vault-relative path, and the text it read). */
export interface ConsultedPage {
  readonly path: string;
  readonly text: string;
}

/** What a question may read besides the wiki: no notes, every note, or the notes in these folders. */
export type NoteScope = "none" | "all" | { readonly folders: readonly string[] };

export interface RunContext {
  readonly signal: AbortSignal;
  /** Absolute wall-clock deadline (epoch ms), or null for none. */
  readonly deadline: number | null;
  readonly usage: UsageAccumulator;
  /** The note being ingested, when the run is an ingest. */
  readonly source?: SourceNote;
  readonly progress?: (event: ProgressEvent) => void;
  readonly log?: RunLogger;
  /**
   * The ISO 639-1 code every page of this run is written in, when the user fixed the wiki's
   * language; absent, each page follows its note's language.
   */
  readonly wikiLanguage?: string;
  /** When the run answers a question: the notes it may read besides the wiki (an agent's staging copy holds only these). */
  readonly noteScope?: NoteScope;
  /**
   * Told which pages an agentic backend read itself while answering: its context is what it read,
   * so citations of those pages can be checked like those of the passages it was sent.
   */
  readonly consulted?: (pages: readonly ConsultedPage[]) => void;
  /**
   * The most output tokens one chat reply of this run may use, sent to the backend as its output
   * limit (lint's pair checks reserve exactly this much per request for the cost limit); absent,
   * the backend's configured limit. Never raises the configured limit, only lowers it.
   */
  readonly maxOutputTokens?: number;
  /** Injected clock so tests can control time. */
  readonly now: () => number;
}

export interface RunContextOptions {
  signal?: AbortSignal;
  /** Milliseconds from now until the run must stop. */
  timeoutMs?: number | null;
  usage?: UsageAccumulator;
  source?: SourceNote;
  progress?: (event: ProgressEvent) => void;
  log?: RunLogger;
  wikiLanguage?: string;
  noteScope?: NoteScope;
  consulted?: (pages: readonly ConsultedPage[]) => void;
  maxOutputTokens?: number;
  now?: () => number;
}

export function createRunContext(options: RunContextOptions = {}): RunContext {
  const now = options.now ?? (() => Date.now());
  const timeout = options.timeoutMs ?? null;
  return {
    signal: options.signal ?? new AbortController().signal,
    deadline: timeout === null ? null : now() + timeout,
    usage: options.usage ?? new UsageAccumulator(),
    ...(options.source ? { source: options.source } : {}),
    ...(options.progress ? { progress: options.progress } : {}),
    ...(options.log ? { log: options.log } : {}),
    ...(options.wikiLanguage ? { wikiLanguage: options.wikiLanguage } : {}),
    ...(options.noteScope ? { noteScope: options.noteScope } : {}),
    ...(options.consulted ? { consulted: options.consulted } : {}),
    ...(options.maxOutputTokens !== undefined && options.maxOutputTokens > 0 ? { maxOutputTokens: options.maxOutputTokens } : {}),
    now,
  };
}

/** A chat reply's output limit: the configured one (0: unset), lowered to the run's cap when it has one. */
export function chatOutputLimit(configured: number, run: RunContext): number {
  const cap = run.maxOutputTokens;
  if (cap === undefined) return configured;
  return configured > 0 ? Math.min(configured, cap) : cap;
}

/** Milliseconds left before the deadline (Infinity without one). */
export function remainingMs(run: RunContext): number {
  return run.deadline === null ? Number.POSITIVE_INFINITY : run.deadline - run.now();
}

/** Throws `cancelled` if the run was aborted, `timeout` if its deadline has passed. */
export function throwIfStopped(run: RunContext): void {
  if (run.signal.aborted) throw new SynapseError("cancelled", "The run was cancelled.");
  if (remainingMs(run) <= 0) throw new SynapseError("timeout", "The run reached its deadline before finishing.");
}

/** A signal that fires on the run's abort or when its deadline passes, whichever is first. */
export function deadlineSignal(run: RunContext, extraTimeoutMs?: number): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const limit = Math.min(remainingMs(run), extraTimeoutMs ?? Number.POSITIVE_INFINITY);
  const onAbort = () => controller.abort(run.signal.reason);
  if (run.signal.aborted) controller.abort(run.signal.reason);
  else run.signal.addEventListener("abort", onAbort, { once: true });
  const timer = Number.isFinite(limit)
    ? setTimeout(() => controller.abort(new SynapseError("timeout", "The request timed out.")), Math.max(0, limit))
    : undefined;
  return {
    signal: controller.signal,
    dispose: () => {
      if (timer !== undefined) clearTimeout(timer);
      run.signal.removeEventListener("abort", onAbort);
    },
  };
}
