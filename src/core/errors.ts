/**
 * The failure taxonomy (DESIGN.md). One root that survives bundling: the plugin, the CLI and the
 * bridge each bundle this file, so `instanceof` cannot be trusted across them; a `Symbol.for`
 * brand can.
 */
import { describeFileSystemError } from "./file-system-error";

/** Where a text is read: a terminal (the CLI, the bridge, their logs and JSON reports) or Obsidian. */
export type Surface = "cli" | "plugin";

const BRAND = Symbol.for("synapse.error");

export const ERROR_KINDS = [
  /** Network failure, cut stream, or a reply that is not the documented envelope. Transient. */
  "transport",
  /** The request outlived its timeout or the run's deadline. Transient. */
  "timeout",
  /** 429 / overloaded: the server asked us to come back later. Transient. */
  "rate_limit",
  /** A well-formed reply that fails the requested schema. */
  "schema",
  /** The provider itself reported a refusal (never guessed from prose). */
  "refusal",
  /** 400, 401/403, model not found, context too long: the request itself is wrong. */
  "request",
  /** Nothing usable came back. */
  "unavailable",
  /**
   * The server ran the prompt in a smaller context window than it needed and cut it (Ollama drops
   * the start, where the instructions are): the reply cannot be trusted, and the same request would
   * be cut again. Not retried; the message names the setting that sizes the window.
   */
  "context",
  /** The user (or the caller) cancelled the run. */
  "cancelled",
  /** The privacy perimeter refused the call before anything was sent. */
  "perimeter",
  /** The request asks for something the provider does not declare. */
  "capability",
  /** Settings or flags are missing or wrong. */
  "config",
  /** The note or path given cannot be ingested (missing, binary, too large, outside the vault). */
  "input",
  /** The vault could not be written (the changes already made were rolled back). */
  "vault",
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

const TRANSIENT: ReadonlySet<ErrorKind> = new Set(["transport", "timeout", "rate_limit"]);

export interface SynapseErrorOptions {
  cause?: unknown;
  /** HTTP status when the failure came from a server. */
  status?: number;
  /** Milliseconds the server asked us to wait (retry-after). */
  retryAfterMs?: number;
  /** The provider request id, when the server sent one. */
  requestId?: string;
  /**
   * The message as Obsidian shows it, where its advice differs from the terminal's: "pass --model"
   * or "run `synapse models`" means nothing there, where the user acts through the settings tab
   * (a setting named as the tab shows it) and the command palette. `message` stays the terminal's.
   */
  pluginMessage?: string;
}

export class SynapseError extends Error {
  readonly [BRAND] = true;
  readonly kind: ErrorKind;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly requestId?: string;
  readonly pluginMessage?: string;

  constructor(kind: ErrorKind, message: string, options: SynapseErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "SynapseError";
    this.kind = kind;
    if (options.pluginMessage !== undefined) this.pluginMessage = options.pluginMessage;
    if (options.status !== undefined) this.status = options.status;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    if (options.requestId !== undefined) this.requestId = options.requestId;
  }

  /** True for transport, timeout and rate-limit failures: the retry policy may try again. */
  get isRetryable(): boolean {
    return TRANSIENT.has(this.kind);
  }

  static isInstance(value: unknown): value is SynapseError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}

export function isTransient(error: unknown): boolean {
  return SynapseError.isInstance(error) && error.isRetryable;
}

/** True when the error means the run was aborted (by us or by an AbortSignal). */
export function isAbort(error: unknown): boolean {
  if (SynapseError.isInstance(error)) return error.kind === "cancelled";
  return error instanceof Error && (error.name === "AbortError" || error.name === "APIUserAbortError");
}

/** Wraps anything thrown into a SynapseError, keeping ours as they are. */
export function toSynapseError(error: unknown, fallback: ErrorKind = "unavailable"): SynapseError {
  if (SynapseError.isInstance(error)) return error;
  if (isAbort(error)) return new SynapseError("cancelled", "The run was cancelled.", { cause: error });
  // A full or read-only disk is the vault's trouble, whatever the caller expected to fail.
  const fileSystem = describeFileSystemError(error);
  if (fileSystem) return new SynapseError("vault", fileSystem, { cause: error });
  const message = error instanceof Error ? error.message : String(error);
  return new SynapseError(fallback, message, { cause: error });
}

/**
 * A failure as a report keeps it: plain data (reports are written as JSON and kept by the plugin's
 * queue), with the text for Obsidian beside the terminal's when their advice differs.
 */
export interface ErrorSummary {
  readonly kind: ErrorKind;
  /** As a terminal shows it (the CLI's report, its `--json`, logs). */
  readonly message: string;
  /** As Obsidian shows it, when that differs from `message`. */
  readonly pluginMessage?: string;
}

export function summariseError(error: SynapseError): ErrorSummary {
  return { kind: error.kind, message: error.message, ...(error.pluginMessage !== undefined ? { pluginMessage: error.pluginMessage } : {}) };
}

/**
 * The same failure said again with words around it ("Re-ingesting X failed: …"), keeping each
 * surface's own text.
 */
export function rephrased(error: SynapseError | ErrorSummary, say: (message: string) => string): SynapseError {
  return new SynapseError(error.kind, say(error.message), error.pluginMessage !== undefined ? { pluginMessage: say(error.pluginMessage) } : {});
}

/** The text of a failure for `surface`: a SynapseError's or a report's, or anything thrown. */
export function messageOn(error: unknown, surface: Surface): string {
  if (typeof error === "object" && error !== null && typeof (error as ErrorSummary).message === "string") {
    const failure = error as ErrorSummary;
    return surface === "plugin" ? (failure.pluginMessage ?? failure.message) : failure.message;
  }
  return String(error);
}
