/**
 * Metadata-only run logging. By default an event records provider, model, operation, outcome,
 * timings and token counts, never prompts or completions. Content capture is an explicit opt-in
 * that truncates and redacts.
 */
import type { ErrorKind } from "./errors";

export interface CallEvent {
  readonly provider: string;
  readonly model: string | null;
  readonly operation: "analyze" | "generate" | "chat" | "agent" | "readiness" | "embed";
  readonly outcome: "ok" | ErrorKind;
  readonly durationMs: number;
  readonly attempt: number;
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  /** The output limit this attempt asked for, when the adapter sets one. */
  readonly outputLimit?: number;
  /** What else the log should say about this attempt ("stopped at the output limit"). */
  readonly note?: string;
  /** Present only when the user opted in to content capture; truncated and redacted. */
  readonly content?: { readonly prompt?: string; readonly reply?: string };
}

/** What an ingest put into the model's context and what it left out for lack of room. */
export interface ContextEvent {
  /** Tokens (estimated) the context could take: the window minus the prompt and the answer. */
  readonly budgetTokens: number;
  readonly usedTokens: number;
  /** Paths (and headings) quoted, best first; `truncated` when the chunk was cut to fit. */
  readonly included: readonly { readonly path: string; readonly heading: string; readonly tokens: number; readonly truncated: boolean }[];
  /** Related chunks that did not fit, best first. */
  readonly omitted: readonly { readonly path: string; readonly heading: string; readonly tokens: number }[];
}

export interface RunLogger {
  call(event: CallEvent): void;
  /** Records the context an ingest assembled; loggers that only count calls may ignore it. */
  context?(event: ContextEvent): void;
  /** Whether content capture is on; providers only build `content` when it is. */
  readonly capturesContent: boolean;
}

export const MAX_CAPTURED_CHARS = 2000;

/**
 * Truncates captured content and removes every secret it knows of, plus anything that looks like
 * a bearer token or an API key.
 */
export function redact(text: string, secrets: readonly string[] = [], max = MAX_CAPTURED_CHARS): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join("[redacted]");
  }
  out = out
    .replace(/\b(sk-[A-Za-z0-9_-]{8,})/g, "[redacted]")
    .replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi, "$1[redacted]")
    .replace(/(x-api-key["':\s]+)[A-Za-z0-9._-]{8,}/gi, "$1[redacted]");
  return out.length > max ? `${out.slice(0, max)}… [${out.length - max} more characters]` : out;
}

/** A logger that keeps events in memory (reports, tests). */
export class MemoryRunLogger implements RunLogger {
  readonly events: CallEvent[] = [];
  readonly contexts: ContextEvent[] = [];
  constructor(readonly capturesContent = false) {}
  call(event: CallEvent): void {
    this.events.push(event);
  }
  context(event: ContextEvent): void {
    this.contexts.push(event);
  }
}

/** One line for a run log: what the context held and what did not fit. */
export function describeContext(event: ContextEvent): string {
  const pages = new Set(event.included.map((i) => i.path)).size;
  const left = event.omitted.length;
  return (
    `context: ${event.included.length} passage${event.included.length === 1 ? "" : "s"} from ${pages} page${pages === 1 ? "" : "s"}, ` +
    `${event.usedTokens.toLocaleString("en-US")} of ${event.budgetTokens.toLocaleString("en-US")} tokens` +
    (left > 0 ? `; left out for lack of room: ${event.omitted.slice(0, 10).map((o) => o.path + (o.heading ? ` › ${o.heading}` : "")).join(", ")}${left > 10 ? ` and ${left - 10} more` : ""}` : "")
  );
}
