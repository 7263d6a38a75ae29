/**
 * The facade every adapter call goes through, so the contract holds the same way on every backend:
 * capabilities are checked before the network is touched; each attempt gets its time limits
 * (attempt-timer.ts: a whole-request limit, or for a streamed reply a limit to the first piece and
 * between pieces), the run's deadline and its abort signal; transient failures go through the one
 * retry policy, except an attempt that ran out of time, which is never sent again unchanged; every attempt is logged as metadata (content only on opt-in,
 * truncated and redacted); and token usage lands on the run's accumulator, even when the reply
 * then fails the schema (the tokens were spent).
 */
import { ThinkFilter } from "./think-filter";
import type { ProviderCapabilities } from "../core/capabilities";
import { raceAbort } from "../core/abort";
import { SynapseError } from "../core/errors";
import { redact, type CallEvent, type RunLogger } from "../core/log";
import { remainingMs, throwIfStopped, type RunContext } from "../core/run-context";
import { attemptTimeoutError, attemptTimer, type AttemptLimits, type AttemptTimer } from "./attempt-timer";
import { isTruncated } from "./output-limit";
import { nextDelay, sleep, withRetry, type RetryPolicy } from "./retry";

export interface TokenUsage {
  /** Every input token, the cached ones included. */
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Of the input, read from the provider's prompt cache. */
  readonly cacheReadTokens?: number;
  /** Of the input, written to the provider's prompt cache. */
  readonly cacheWriteTokens?: number;
}

export type Operation = CallEvent["operation"];

/** Per-adapter facts the facade needs; built once by the adapter from what the factory gave it. */
export interface CallConfig {
  /** Capabilities name, recorded in logs and usage ("ollama"). */
  readonly provider: string;
  /** How messages name the backend ("Ollama"). */
  readonly label: string;
  readonly model: string | null;
  /** A reply that is not streamed must arrive within this; a streamed one may pause this long between pieces. */
  readonly requestTimeoutMs: number;
  /** A streamed reply's first piece must arrive within this (prompt evaluation on a CPU is slow). */
  readonly firstTokenTimeoutMs: number;
  readonly retry: RetryPolicy;
  /** Strings that must never appear in logs (API keys). */
  readonly secrets: readonly string[];
  /** Fallback when the run carries no logger. */
  readonly logger?: RunLogger;
}

/** What every adapter's settings hold that the facade needs. */
export interface AdapterCallSettings {
  readonly model: string;
  readonly requestTimeoutMs: number;
  /** Absent: the request timeout. */
  readonly firstTokenTimeoutMs?: number;
  readonly retry: RetryPolicy;
  readonly secrets?: readonly string[];
  readonly logger?: RunLogger;
}

export function callConfig(provider: string, label: string, settings: AdapterCallSettings): CallConfig {
  return {
    provider,
    label,
    model: settings.model || null,
    requestTimeoutMs: settings.requestTimeoutMs,
    firstTokenTimeoutMs: settings.firstTokenTimeoutMs ?? settings.requestTimeoutMs,
    retry: settings.retry,
    secrets: settings.secrets ?? [],
    ...(settings.logger ? { logger: settings.logger } : {}),
  };
}

/** One request's raw outcome, before interpretation. */
export interface Exchange<R> {
  readonly raw: R;
  readonly usage: TokenUsage | null;
  /** The reply text, kept only for opt-in content capture. */
  readonly replyText?: string;
}

export interface CallSpec<R, T> {
  readonly operation: Operation;
  /** The output limit the request asks for, recorded in the log. */
  readonly outputLimit?: number;
  /** The prompt as text, kept only for opt-in content capture. */
  readonly prompt: string;
  /** The reply is streamed: `send` calls `received` for each piece, and silence, not length, times it out. */
  readonly streamed?: boolean;
  send(signal: AbortSignal, received: (piece: string) => void): Promise<Exchange<R>>;
  /** Turns the raw reply into the result; throws `transport` for a broken envelope, `schema` for a bad payload. */
  interpret(raw: R): T;
  /** Turns whatever the SDK threw into the taxonomy. */
  readonly mapError: (error: unknown) => SynapseError;
}

/** What a call asks of the provider, checked against its declared capabilities first. */
export interface CallNeeds {
  readonly streaming?: boolean;
  readonly embeddings?: boolean;
  /** Estimated prompt tokens; refused when the declared context window is known and smaller. */
  readonly inputTokens?: number;
}

/** chars/4 is the usual rough estimate; CJK and code run denser, so this errs low, never high. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Throws `capability` (or `config`) before any request when the call asks for what is not declared. */
export function checkCapabilities(caps: ProviderCapabilities, label: string, needs: CallNeeds): void {
  if (!caps.model) {
    throw new SynapseError("config", `No model is configured for ${label}; set one in the settings (or pass --model).`, {
      pluginMessage: `No model is configured for ${label}; set "Model" in the settings of the backend in use.`,
    });
  }
  if (needs.streaming && !caps.streaming) {
    throw new SynapseError("capability", `${label} does not declare streaming, so it cannot answer a chat.`);
  }
  if (needs.embeddings && !caps.supportsEmbeddings) {
    throw new SynapseError("capability", `${label} has no embedding model configured; set one in the settings to use vector search.`);
  }
  if (needs.inputTokens !== undefined && caps.maxContext > 0 && needs.inputTokens > caps.maxContext) {
    throw new SynapseError(
      "capability",
      `The request needs about ${needs.inputTokens} tokens but ${caps.model} declares a ${caps.maxContext}-token context; ingest a shorter note or pick a model with a larger context.`,
    );
  }
}

/** Classifies a failure, giving precedence to the run's own abort and to our time limits. */
export function settleError(error: unknown, timer: AttemptTimer, run: RunContext, config: CallConfig, mapError: (e: unknown) => SynapseError): SynapseError {
  if (run.signal.aborted) return new SynapseError("cancelled", "The run was cancelled.", { cause: error });
  if (timer.signal.aborted) {
    const expired = timer.expired();
    if (expired === null || remainingMs(run) <= 0) {
      return new SynapseError("timeout", `The run reached its deadline while waiting for ${config.label}.`, { cause: error });
    }
    return attemptTimeoutError(timeoutMessage(config, expired, timer), error);
  }
  if (SynapseError.isInstance(error)) return error;
  return mapError(error);
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

function timeoutMessage(config: CallConfig, expired: "first" | "idle", timer: AttemptTimer): string {
  if (expired === "idle") {
    return `${config.label} stopped sending its reply for ${seconds(config.requestTimeoutMs)} (setting "Request timeout"); it was not asked again. Raise the setting or pick a smaller model.`;
  }
  if (timer.streamed) {
    return `${config.label} sent nothing within ${seconds(config.firstTokenTimeoutMs)} (setting "First token timeout"); a model on a CPU may need minutes to read a long prompt. It was not asked again: raise the setting or pick a smaller model.`;
  }
  return `${config.label} did not answer within ${seconds(config.requestTimeoutMs)} (setting "Request timeout"); it was not asked again. Try a smaller model or a longer timeout.`;
}

/** The time limits of one attempt: streamed replies are judged by silence. */
export function limitsFor(config: CallConfig, streamed: boolean): AttemptLimits {
  return streamed ? { firstMs: config.firstTokenTimeoutMs, idleMs: config.requestTimeoutMs } : { firstMs: config.requestTimeoutMs, idleMs: null };
}

function logAttempt(run: RunContext, config: CallConfig, event: Omit<CallEvent, "provider" | "model">, prompt: string, reply: string | undefined): void {
  const logger = run.log ?? config.logger;
  if (!logger) return;
  const content = logger.capturesContent
    ? { content: { prompt: redact(prompt, config.secrets), ...(reply !== undefined ? { reply: redact(reply, config.secrets) } : {}) } }
    : {};
  logger.call({ provider: config.provider, model: config.model, ...event, ...content });
}

function recordUsage(run: RunContext, config: CallConfig, operation: Operation, usage: TokenUsage | null): void {
  // Readiness calls (/api/show) spend no tokens.
  if (!usage || operation === "readiness") return;
  const cache = {
    ...(usage.cacheReadTokens ? { cacheReadTokens: usage.cacheReadTokens } : {}),
    ...(usage.cacheWriteTokens ? { cacheWriteTokens: usage.cacheWriteTokens } : {}),
  };
  run.usage.record({ provider: config.provider, model: config.model, operation, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, ...cache });
  run.progress?.({ type: "usage", inputTokens: usage.inputTokens, outputTokens: usage.outputTokens });
}

/**
 * A request that timed out or was cancelled while the server worked on it returned no usage, yet
 * its prompt was read (and paid for, on a priced API): recorded as an estimate, flagged so, rather
 * than left out of the run's usage.
 */
function recordEstimatedUsage(run: RunContext, config: CallConfig, operation: Operation, error: SynapseError, prompt: string, reply: string | undefined, heardChars: number): void {
  if (operation === "readiness" || !prompt || (error.kind !== "timeout" && error.kind !== "cancelled")) return;
  const inputTokens = estimateTokens(prompt);
  // Everything the model wrote before it stopped, its thinking included: the server spent (and a priced API bills) those tokens too.
  const outputTokens = Math.max(reply ? estimateTokens(reply) : 0, Math.ceil(heardChars / 4));
  run.usage.record({ provider: config.provider, model: config.model, operation, inputTokens, outputTokens, estimated: true });
  run.progress?.({ type: "usage", inputTokens, outputTokens });
}

/** One request/response call under the full policy; the retry loop itself is `withRetry`. */
export function callWithPolicy<R, T>(config: CallConfig, run: RunContext, spec: CallSpec<R, T>): Promise<T> {
  return withRetry(config.retry, run, async (attempt) => {
    throwIfStopped(run);
    const started = run.now();
    const timer = attemptTimer(run, limitsFor(config, spec.streamed === true));
    const { signal } = timer;
    const pace = spec.streamed ? tokenPace(run, config) : null;
    let usage: TokenUsage | null = null;
    let reply: string | undefined;
    let heard = 0;
    try {
      const exchange = await raceAbort(
        spec.send(signal, (piece) => {
          heard += piece.length;
          timer.received();
          pace?.(piece);
        }),
        signal,
      );
      usage = exchange.usage;
      reply = exchange.replyText;
      recordUsage(run, config, spec.operation, usage);
      const value = spec.interpret(exchange.raw);
      logAttempt(run, config, { operation: spec.operation, outcome: "ok", durationMs: run.now() - started, attempt, ...tokens(usage), ...limitOf(spec) }, spec.prompt, reply);
      return value;
    } catch (thrown) {
      const error = settleError(thrown, timer, run, config, spec.mapError);
      const note = isTruncated(error) ? { note: "stopped at the output limit" } : {};
      if (!usage) recordEstimatedUsage(run, config, spec.operation, error, spec.prompt, reply, heard);
      logAttempt(run, config, { operation: spec.operation, outcome: error.kind, durationMs: run.now() - started, attempt, ...tokens(usage), ...limitOf(spec), ...note }, spec.prompt, reply);
      throw error;
    } finally {
      timer.dispose();
    }
  });
}

/** How often a streamed reply reports its pace, in the run's clock. */
const PACE_EVERY_MS = 5_000;

/**
 * Counts a streamed reply's pieces (a piece is about one token on Ollama) and reports, every few
 * seconds, how many have arrived and how fast: on a CPU a reply takes minutes, and a count that
 * keeps growing is what tells the user it is still working.
 */
function tokenPace(run: RunContext, config: CallConfig): ((piece: string) => void) | null {
  const progress = run.progress;
  if (!progress) return null;
  // Measured from the first piece: the wait before it is the prompt being read, not writing.
  let first: number | null = null;
  let last = 0;
  let count = 0;
  return (piece) => {
    if (!piece) return;
    count++;
    const now = run.now();
    if (first === null) {
      first = now;
      last = now;
      return;
    }
    if (now - last < PACE_EVERY_MS) return;
    last = now;
    const perSecond = (count - 1) / Math.max(0.001, (now - first) / 1000);
    progress({
      type: "activity",
      message: `${config.label} is writing: ${count} tokens so far, ${perSecond.toFixed(1)} tokens/s.`,
      tokens: { output: count, perSecond },
    });
  };
}

function limitOf(spec: { readonly outputLimit?: number }): { outputLimit?: number } {
  return spec.outputLimit && spec.outputLimit > 0 ? { outputLimit: spec.outputLimit } : {};
}

function tokens(usage: TokenUsage | null): { inputTokens?: number; outputTokens?: number } {
  return usage ? { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens } : {};
}

/** What a streaming adapter yields: text for the user, usage and refusals for the facade. */
export type StreamPart =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "usage"; readonly usage: TokenUsage }
  /** A reasoning model's thinking, sent apart from the answer: proof it is working, never shown. */
  | { readonly type: "thinking"; readonly text: string };

export interface StreamSpec {
  readonly prompt: string;
  /** Opens the stream; must throw `transport` when it ends without the protocol's final event. */
  open(signal: AbortSignal): AsyncIterable<StreamPart>;
  readonly mapError: (error: unknown) => SynapseError;
}

/**
 * A streamed chat under the policy. Retries only before the first text reached the caller (what
 * was shown cannot be taken back); stopping the iteration early aborts the request.
 */
export async function* streamWithPolicy(config: CallConfig, run: RunContext, spec: StreamSpec): AsyncGenerator<string, void, undefined> {
  for (let attempt = 1; ; attempt++) {
    throwIfStopped(run);
    const started = run.now();
    const timer = attemptTimer(run, limitsFor(config, true));
    const pace = tokenPace(run, config);
    // Aborted in `finally`, so a caller that stops reading also closes the connection.
    const local = new AbortController();
    const signal = AbortSignal.any([timer.signal, local.signal]);
    let usage: TokenUsage | null = null;
    let yielded = false;
    let reply = "";
    let heard = 0;
    // Reasoning written into the answer never reaches the reader (think-filter.ts).
    const thinking = new ThinkFilter();
    const parts = spec.open(signal)[Symbol.asyncIterator]();
    try {
      // Each step is raced against the signal, for transports that cannot abort a read.
      for (let step = await raceAbort(parts.next(), signal); !step.done; step = await raceAbort(parts.next(), signal)) {
        const part = step.value;
        timer.received();
        if (part.type === "usage") {
          usage = part.usage;
          continue;
        }
        if (part.type === "thinking") {
          heard += part.text.length;
          continue;
        }
        if (!part.text) continue;
        heard += part.text.length;
        pace?.(part.text);
        const text = thinking.push(part.text);
        if (!text) continue;
        yielded = true;
        if (reply.length < 10_000) reply += text;
        yield text;
      }
      const rest = thinking.end();
      if (rest) {
        yielded = true;
        reply += rest;
        yield rest;
      }
      recordUsage(run, config, "chat", usage);
      logAttempt(run, config, { operation: "chat", outcome: "ok", durationMs: run.now() - started, attempt, ...tokens(usage) }, spec.prompt, reply);
      return;
    } catch (thrown) {
      const error = settleError(thrown, timer, run, config, spec.mapError);
      recordUsage(run, config, "chat", usage);
      if (!usage) recordEstimatedUsage(run, config, "chat", error, spec.prompt, reply, heard);
      logAttempt(run, config, { operation: "chat", outcome: error.kind, durationMs: run.now() - started, attempt, ...tokens(usage) }, spec.prompt, reply);
      const delay = yielded ? null : nextDelay(error, attempt, config.retry, run);
      if (delay === null) throw error;
      run.progress?.({ type: "retry", attempt: attempt + 1, delayMs: delay, reason: error.kind });
      await sleep(delay, run.signal);
    } finally {
      local.abort();
      timer.dispose();
      // Lets the adapter's generator run its own cleanup once the aborted read settles.
      parts.return?.(undefined).catch(() => undefined);
    }
  }
}
