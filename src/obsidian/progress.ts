/**
 * What the status bar shows while an ingest runs: a snapshot folded from the run's progress
 * events, and the words for it. Plain functions, so the wording is tested without a DOM.
 */
import type { Phase, ProgressEvent } from "../core/run-context";

export interface RunProgress {
  /** The note being ingested, as the user knows it (its name without the folder). */
  readonly label: string;
  readonly phase: Phase | null;
  readonly attempt: number | null;
  readonly maxAttempts: number | null;
  /** Tokens so far: usage events carry one call each, so they add up. */
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Set while the retry policy waits before trying again; cleared by the next event. */
  readonly retry: { readonly attempt: number; readonly delayMs: number; readonly reason: string } | null;
  /** The last thing an agentic backend reported doing. */
  readonly activity: string | null;
}

export function startProgress(notePath: string): RunProgress {
  const name = notePath.split("/").pop() ?? notePath;
  return {
    label: name.replace(/\.md$/i, ""),
    phase: null,
    attempt: null,
    maxAttempts: null,
    inputTokens: 0,
    outputTokens: 0,
    retry: null,
    activity: null,
  };
}

export function applyProgress(state: RunProgress, event: ProgressEvent): RunProgress {
  switch (event.type) {
    case "phase":
      return {
        ...state,
        phase: event.phase,
        attempt: event.attempt ?? (event.phase === state.phase ? state.attempt : null),
        maxAttempts: event.maxAttempts ?? (event.phase === state.phase ? state.maxAttempts : null),
        retry: null,
      };
    case "usage":
      return {
        ...state,
        inputTokens: state.inputTokens + event.inputTokens,
        outputTokens: state.outputTokens + event.outputTokens,
        retry: null,
      };
    case "retry":
      return { ...state, retry: { attempt: event.attempt, delayMs: event.delayMs, reason: event.reason } };
    case "activity":
      return { ...state, activity: event.message, retry: null };
  }
}

/** The phase in the status bar itself: one word or two, so the text stays short. */
const PHASE_SHORT: Record<Phase, string> = {
  reading: "reading",
  analysing: "analysing",
  generating: "generating",
  validating: "checking",
  delegating: "agent working",
  writing: "writing",
};

/** The phase in the tooltip, where there is room. */
const PHASE_WORDS: Record<Phase, string> = {
  reading: "Reading the note",
  analysing: "Analysing",
  generating: "Generating",
  validating: "Checking pages",
  delegating: "Agent working",
  writing: "Writing pages",
};

/** 950 → "950", 12_345 → "12.3k", 2_500_000 → "2.5M". */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  if (tokens < 1_000_000) return `${(tokens / 1000).toFixed(tokens < 10_000 ? 1 : 0)}k`;
  return `${(tokens / 1_000_000).toFixed(1)}M`;
}

const RETRY_REASONS: Record<string, string> = {
  rate_limit: "rate limited",
  timeout: "timed out",
  transport: "connection problem",
};

function retrySeconds(retry: NonNullable<RunProgress["retry"]>): number {
  return Math.max(1, Math.round(retry.delayMs / 1000));
}

/**
 * The status bar text, short enough for a crowded status bar (at most 32 characters), e.g.
 * "Synapse: generating · 2 more"; the attempt, the tokens and the note are in the tooltip.
 */
export function statusText(progress: RunProgress | null, queued: number): string {
  if (progress === null) return queued > 0 ? `Synapse: ${queued} queued` : "";
  let phase = progress.phase === null ? "starting" : PHASE_SHORT[progress.phase];
  if (progress.retry !== null) phase = `retry in ${retrySeconds(progress.retry)} s`;
  return queued > 0 ? `Synapse: ${phase} · ${queued} more` : `Synapse: ${phase}`;
}

/** The tooltip: which note, the phase and attempt, what the agent last did, the tokens, and what a click does. */
export function statusTooltip(progress: RunProgress | null, queued: number): string {
  if (progress === null) return queued > 0 ? `${queued} ingest${queued === 1 ? "" : "s"} waiting` : "";
  const lines = [`Ingesting "${progress.label}"`];
  let phase = progress.phase === null ? "Starting" : PHASE_WORDS[progress.phase];
  if (progress.attempt !== null && progress.maxAttempts !== null && (progress.phase === "generating" || progress.phase === "validating")) {
    phase += `, attempt ${progress.attempt} of ${progress.maxAttempts}`;
  }
  if (progress.retry !== null) {
    phase += ` (${RETRY_REASONS[progress.retry.reason] ?? progress.retry.reason}, retrying in ${retrySeconds(progress.retry)} s)`;
  }
  lines.push(phase);
  if (progress.activity) lines.push(progress.activity);
  if (progress.inputTokens + progress.outputTokens > 0) {
    lines.push(`${progress.inputTokens.toLocaleString("en-US")} tokens in, ${progress.outputTokens.toLocaleString("en-US")} out`);
  }
  if (queued > 0) lines.push(`${queued} more waiting`);
  lines.push("Click to cancel");
  return lines.join("\n");
}
