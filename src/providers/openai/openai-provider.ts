/**
 * The OpenAI-compatible (API) backend: OpenAI, OpenRouter, LM Studio, vLLM, llama.cpp server…,
 * whatever `baseURL` says. Structured output asks for `response_format: json_schema` (strict);
 * servers differ, so when one rejects it the adapter remembers and falls back to the schema in the
 * prompt, and every reply goes through tolerant parsing (fences, leading prose) and zod.
 * `message.refusal` is a refusal. A local server's count of the prompt (`usage.prompt_tokens`, on
 * the last chunk of a stream) is judged as Ollama's is (../prompt-read.ts): Ollama's /v1 cuts a
 * prompt longer than its window with no error, and only the count tells.
 */
import type OpenAI from "openai";
import type { z } from "zod";
import { defineCapabilities, type ProviderCapabilities } from "../../core/capabilities";
import { SynapseError } from "../../core/errors";
import type { RunLogger } from "../../core/log";
import type { GenerationInput, InferenceProvider, StructuredAsk } from "../../core/provider";
import { chatOutputLimit, type RunContext } from "../../core/run-context";
import type { Analysis, Message, WikiPage } from "../../core/schemas";
import { callConfig, callWithPolicy, checkCapabilities, estimateTokens, streamWithPolicy, type CallConfig, type StreamPart } from "../call";
import { envelopeError } from "../classify-error";
import { OPENAI_URL_SETTING } from "../server-setting";
import { knownContextWindow, knownMaxOutput } from "../context-windows";
import { OutputLimits, isTruncated, outputCeiling, truncatedError, withOutputLimit, type OutputLimitContext } from "../output-limit";
import { textTokens, windowTokens } from "../../core/window-tokens";
import type { ReportedWindow } from "./context-probe";
import { capitalised, fitOutput, promptCutError, promptFilledWindowError, refusedPromptTokens, resolveWindow, windowAdvice, type WindowInUse } from "./context-window";
import { checkPromptRead, isWindowOutgrown, type PromptOf, type SentPrompt } from "../prompt-read";
import { parseReply } from "../../core/json-repair";
import { chatMessages, promptText, type PromptPair } from "../prompts";
import { analysisRequest, oneOffRequest, pagesRequest, type StructuredRequest } from "../structured-request";
import type { RetryPolicy } from "../retry";
import { mapSdkError, sdkErrorClasses } from "../sdk-errors";
import { openaiSdk } from "./sdk";
import { OpenAICompletion, OpenAIEmbeddingReply, tokenUsageOf } from "./envelope";
import { streamedCompletion } from "./stream-completion";
import { answerParts, refusalError } from "./answer-stream";
import { reasoningSwitch } from "./reasoning-switch";
import type { EmbeddingProvider } from "../embedding";
import { fitPrompt, replyReserve, type PromptMeasure } from "../prompt-fit";
import { calibrationFor, type TokenCalibration } from "../token-calibration";
import { stepOutputLimit, type OutputStep } from "../ollama/step-output";

/** The output each kind of structured request needs, which its share of the window is sized by. */
const STEPS: Readonly<Record<StructuredRequest<unknown>["operation"], Exclude<OutputStep, "answer">>> = { analyze: "analysis", generate: "pages", chat: "check" };

export type OpenAIClient = Pick<OpenAI, "chat" | "embeddings">;

export interface OpenAIAdapterConfig {
  /** The client, built (and the SDK loaded) on the first request. */
  readonly client: () => Promise<OpenAIClient>;
  readonly streamingClient: () => Promise<OpenAIClient>;
  /** Display form of the base URL (no credentials). */
  readonly where: string;
  readonly isLocal: boolean;
  readonly model: string;
  /** The /v1/embeddings model; empty when none is configured (the provider then declares no embeddings). */
  readonly embeddingModel?: string;
  readonly maxTokens: number;
  /** The "Context window" setting; 0: learn it from the server. */
  readonly contextWindow: number;
  /** Asks the server for its window (best effort, never throws); hosted APIs say nothing, so resolve null. */
  readonly probeWindow: () => Promise<ReportedWindow | null>;
  /** OpenAI's own API wants `max_completion_tokens`; most compatible servers know only `max_tokens`. */
  readonly maxTokensField: "max_tokens" | "max_completion_tokens";
  /** "prompt" skips `response_format` from the start (servers known to refuse it). */
  readonly structuredOutput: "json_schema" | "prompt";
  /** Whether the server does native tool calling (known for OpenAI itself only). */
  readonly supportsTools: boolean;
  readonly options: Readonly<Record<string, string | number | boolean>>;
  readonly requestTimeoutMs: number;
  /** A streamed answer's first piece must arrive within this. */
  readonly firstTokenTimeoutMs?: number;
  readonly retry: RetryPolicy;
  readonly secrets: readonly string[];
  readonly logger?: RunLogger;
}


/** A 400/422 that complains about the structured-output request itself. */
function rejectsResponseFormat(error: unknown): boolean {
  const APIError = openaiSdk.loaded?.APIError;
  if (!APIError || !(error instanceof APIError) || (error.status !== 400 && error.status !== 422)) return false;
  return /response_format|json_schema|structured output|strict/i.test(error.message);
}

export class OpenAICompatibleProvider implements InferenceProvider, EmbeddingProvider {
  private readonly call: CallConfig;
  /** Set once the server refuses `response_format`; later calls go straight to prompt-described JSON. */
  private promptOnly: boolean;
  private readonly output: OutputLimitContext;
  /** Learned once, before the first model call; every later request reuses it. */
  private window: Promise<WindowInUse> | null = null;
  private windowKnown: WindowInUse | null = null;
  /** What the server said about itself when asked for its window (which server, whether the model thinks). */
  private reported: ReportedWindow | null = null;
  private readonly calibration: TokenCalibration;

  constructor(private readonly config: OpenAIAdapterConfig) {
    this.promptOnly = config.structuredOutput === "prompt";
    this.call = callConfig("openai", "The OpenAI-compatible server", config);
    this.calibration = calibrationFor("openai", config.where, config.model);
    this.output = {
      label: "The OpenAI-compatible server",
      limits: new OutputLimits(config.maxTokens),
      ceiling: () => outputCeiling(config.maxTokens, this.capabilities()),
      advice: (limit) =>
        limit < outputCeiling(config.maxTokens, this.capabilities())
          ? `Raise "Max output tokens" under API: OpenAI-compatible in the settings.`
          : `That is the most ${config.model} declares; ingest a shorter note.`,
    };
  }

  capabilities(): ProviderCapabilities {
    return defineCapabilities({
      name: "openai",
      mode: "api",
      model: this.config.model || null,
      isLocal: this.config.isLocal,
      supportsTools: this.config.supportsTools,
      supportsAgenticLoop: false,
      structuredOutput: this.promptOnly ? "none" : "json_schema",
      streaming: true,
      maxContext: this.windowNow().tokens,
      maxOutputTokens: knownMaxOutput(this.config.model),
      supportsEmbeddings: this.embeddingModel.length > 0,
    });
  }

  /** The window requests must fit, asking the server the first time. */
  contextWindow(): Promise<WindowInUse> {
    this.window ??= this.config
      .probeWindow()
      .catch(() => null)
      .then((reported) => {
        this.reported = reported;
        return (this.windowKnown = resolveWindow(reported, this.config.contextWindow, knownContextWindow(this.config.model)));
      });
    return this.window;
  }

  /** The window as far as it is known yet (before the first call: the setting or the documented one). */
  private windowNow(): WindowInUse {
    return this.windowKnown ?? resolveWindow(null, this.config.contextWindow, knownContextWindow(this.config.model));
  }

  async analyze(sourceText: string, vaultContext: string, run: RunContext): Promise<Analysis> {
    return this.structured(run, analysisRequest("openai", sourceText, vaultContext, run));
  }

  async generate(input: GenerationInput, run: RunContext): Promise<WikiPage[]> {
    return (await this.structured(run, pagesRequest("openai", input, run))).pages;
  }

  /** Held to the run's cap and never raised: a verdict cut off at it is simply unreadable. */
  async ask<T>(request: StructuredAsk<T>, run: RunContext): Promise<T> {
    return this.structured(run, oneOffRequest("openai", request), chatOutputLimit(this.config.maxTokens, run));
  }

  chat(messages: Message[], retrievalContext: string, run: RunContext): AsyncIterable<string> {
    const all = chatMessages(messages, retrievalContext, run.wikiLanguage);
    const prompt = all.map((m) => `${m.role}: ${m.content}`).join("\n\n");
    checkCapabilities(this.capabilities(), "The OpenAI-compatible server", { streaming: true, inputTokens: estimateTokens(prompt) });
    return this.chatWithinWindow(run, prompt, all);
  }

  private async *chatWithinWindow(run: RunContext, prompt: string, all: readonly Message[]): AsyncGenerator<string> {
    const window = await this.contextWindow();
    const maxTokens = fitOutput(this.measure().tokens(prompt), chatOutputLimit(this.config.maxTokens, run), window, this.config.model);
    const sent = { prompt, estimated: estimateTokens(prompt) };
    yield* streamWithPolicy(this.call, run, {
      prompt,
      mapError: (error) => this.mapError(error),
      // Read whole, or the answer's own failure, told once it has streamed (what was shown stays shown).
      open: (signal) => this.streamChat(signal, all, maxTokens, (counted) => this.checkPromptRead(counted, sent, window, "question")),
    });
  }

  get embeddingModel(): string {
    return this.config.embeddingModel ?? "";
  }

  async embed(texts: readonly string[], run: RunContext): Promise<number[][]> {
    const label = "The OpenAI-compatible server";
    checkCapabilities({ ...this.capabilities(), model: this.embeddingModel || null }, label, { embeddings: true });
    if (texts.length === 0) return [];
    const model = this.embeddingModel;
    return callWithPolicy({ ...this.call, model }, run, {
      operation: "embed",
      prompt: texts.join("\n---\n"),
      mapError: (error) => mapSdkError(error, sdkErrorClasses(openaiSdk.loaded), { label, model, where: this.config.where, secrets: this.config.secrets, setting: OPENAI_URL_SETTING }),
      send: async (signal) => {
        const client = await this.config.client();
        // "float" explicitly: the SDK otherwise asks for base64, which not every compatible server speaks.
        const raw: unknown = await client.embeddings.create({ model, input: [...texts], encoding_format: "float" }, { signal, maxRetries: 0, timeout: this.config.requestTimeoutMs });
        const parsed = OpenAIEmbeddingReply.safeParse(raw);
        const usage = parsed.success && parsed.data.usage ? { inputTokens: parsed.data.usage.prompt_tokens ?? 0, outputTokens: 0 } : null;
        return { raw, usage };
      },
      interpret: (raw) => {
        const parsed = OpenAIEmbeddingReply.safeParse(raw);
        if (!parsed.success) throw envelopeError(label, "no embeddings in the reply", OPENAI_URL_SETTING);
        const byIndex = [...parsed.data.data].sort((a, b) => a.index - b.index);
        if (byIndex.length !== texts.length || byIndex.some((d, i) => d.index !== i)) throw envelopeError(label, `${byIndex.length} embeddings for ${texts.length} texts`, OPENAI_URL_SETTING);
        return byIndex.map((d) => d.embedding);
      },
    });
  }

  private mapError(error: unknown): SynapseError {
    const mapped = mapSdkError(error, sdkErrorClasses(openaiSdk.loaded), { label: "The OpenAI-compatible server", model: this.config.model, where: this.config.where, secrets: this.config.secrets, setting: OPENAI_URL_SETTING });
    if (mapped.kind !== "context" || error === mapped) return mapped;
    return new SynapseError("context", `${mapped.message} To make room: ${windowAdvice(this.windowNow())}.`, {
      ...(mapped.status !== undefined ? { status: mapped.status } : {}),
      cause: error,
    });
  }

  private body(pair: PromptPair, schema: Record<string, unknown>, schemaName: string, withFormat: boolean, maxTokens: number): Record<string, unknown> {
    return {
      // Thinking off for a structured step where the server has a switch; the user's options may say otherwise.
      ...reasoningSwitch(this.reported, this.config.model),
      ...this.config.options,
      model: this.config.model,
      [this.config.maxTokensField]: maxTokens,
      messages: [
        { role: "system", content: pair.system },
        { role: "user", content: pair.user },
      ],
      ...(withFormat ? { response_format: { type: "json_schema", json_schema: { name: schemaName, schema, strict: true } } } : {}),
    };
  }

  /**
   * `fixedLimit`: one request at that output limit, with no raise after a cut-off reply.
   * `previous`: this is the one re-send after the server refused or cut the prompt and said what it
   * counted (the prompt sent then, and how it failed).
   */
  private async structured<T>(run: RunContext, whole: StructuredRequest<T>, fixedLimit?: number, previous?: { readonly prompt: string; readonly error: unknown }): Promise<T> {
    const { what } = whole;
    const window = await this.contextWindow();
    // The note packed within the window, less its reply's share (prompt-fit.ts); a window not known packs nothing.
    const replyLimit = Math.min(fixedLimit ?? this.output.limits.current(run), stepOutputLimit(STEPS[whole.operation], 0));
    const request = window.tokens > 0 ? { ...whole, pair: fitPrompt(whole, window.tokens - replyReserve(replyLimit, window.tokens), this.measure()) } : whole;
    const prompt = promptText(request.pair);
    const promptTokens = this.measure().tokens(prompt);
    // First, so a prompt too long for the window is refused with the window's own advice.
    fitOutput(promptTokens, 0, window, this.config.model);
    // A cut prompt packing cannot change would be cut again: never the same request twice.
    if (previous && isWindowOutgrown(previous.error) && prompt === previous.prompt) throw previous.error;
    checkCapabilities(this.capabilities(), "The OpenAI-compatible server", { inputTokens: estimateTokens(prompt) });
    const attempt = async (stepLimit: number) => {
      const limit = fitOutput(promptTokens, stepLimit, window, this.config.model);
      try {
        return await this.send(run, request, limit, window);
      } catch (error) {
        // Cut off where the window ends: a raised limit would be lowered to the same room again.
        if (limit !== stepLimit && isTruncated(error)) {
          throw new SynapseError("schema", `The OpenAI-compatible reply for ${what} filled the ${window.tokens}-token context window before it was complete; nothing from it is used. ${capitalised(windowAdvice(window))}.`, { cause: error });
        }
        throw error;
      }
    };
    try {
      return await (fixedLimit !== undefined ? attempt(fixedLimit) : withOutputLimit(run, this.output, attempt));
    } catch (error) {
      // Refused as too long, or cut for filling the window, with the server's own count: sized and
      // packed again by it, once (not the same request).
      if (previous || window.tokens <= 0 || !this.learnedFrom(error, textTokens(prompt))) throw error;
      run.progress?.({ type: "activity", message: `The OpenAI-compatible server counted more prompt tokens than estimated; sending ${what} again within its ${window.tokens}-token context window.` });
      return this.structured(run, whole, fixedLimit, { prompt, error });
    }
  }

  /**
   * Whether the failure taught the calibration the prompt's count: a cut for filling the window
   * (the count was learned when it was judged), or a refusal for size that named the count and raised it.
   */
  private learnedFrom(error: unknown, estimate: number): boolean {
    if (isWindowOutgrown(error)) return true;
    if (!SynapseError.isInstance(error) || error.kind !== "context") return false;
    const before = this.calibration.ratio;
    this.calibration.observe(estimate, refusedPromptTokens(error.message));
    return this.calibration.ratio > before;
  }

  private send<T>(run: RunContext, request: StructuredRequest<T>, limit: number, window: WindowInUse): Promise<T> {
    const { operation, pair, schema, replySchema, what, schemaName } = request;
    const prompt = promptText(pair);
    return callWithPolicy(this.call, run, {
      operation,
      outputLimit: limit,
      prompt,
      // Streamed, so a slow local server is timed by silence, not by the length of its reply.
      streamed: true,
      mapError: (error) => this.mapError(error),
      send: async (signal, received) => {
        const client = await this.config.streamingClient();
        const open = (withFormat: boolean) =>
          client.chat.completions.create(
            { ...this.body(pair, schema, schemaName, withFormat, limit), stream: true, stream_options: { include_usage: true } } as unknown as OpenAI.ChatCompletionCreateParamsStreaming,
            { signal, ...this.sdkOptions() },
          );
        let stream: AsyncIterable<unknown>;
        if (this.promptOnly) stream = await open(false);
        else {
          try {
            stream = await open(true);
          } catch (error) {
            if (!rejectsResponseFormat(error)) throw error;
            // The schema is in the prompt too, so the same request without the constraint still asks for it.
            this.promptOnly = true;
            stream = await open(false);
          }
        }
        const raw = await streamedCompletion(stream, received);
        const usage = raw.usage ? tokenUsageOf(raw.usage) : null;
        return { raw, usage, replyText: raw.choices[0]?.message.content ?? "" };
      },
      interpret: (raw) => {
        // A cut prompt lost its instructions: whatever came back is not an answer to them.
        this.checkPromptRead(raw.usage?.prompt_tokens, { prompt, estimated: estimateTokens(prompt) }, window, "note");
        return interpretCompletion(raw, replySchema, what, limit);
      },
    });
  }

  /**
   * The count of a local runtime (llama-server, LM Studio, vLLM, Ollama's /v1: a server that said
   * what it is when asked for its window, on this machine or another of the network) is judged
   * (../prompt-read.ts): it may have cut the prompt. A hosted API, or a proxy in front of one,
   * refuses a prompt too long for the model and never cuts one, and its count may fall well below
   * the estimate for its own reasons (a tokenizer that packs tighter): there it only calibrates.
   */
  private checkPromptRead(counted: number | null | undefined, sent: SentPrompt, window: WindowInUse, of: PromptOf): void {
    if (this.reported === null) {
      this.calibration.observe(textTokens(sent.prompt), counted);
      return;
    }
    checkPromptRead(counted, sent, window.tokens, this.calibration, {
      cut: (reported) => promptCutError(reported, sent.estimated, window, of),
      filled: (reported) => promptFilledWindowError(reported, sent.estimated, window, of),
    });
  }

  /** What the server was seen to count per token of the window measure, for the query's packing. */
  promptTokenRatio(): number {
    return this.calibration.ratio;
  }

  /** Prompts measured as this model on this server was seen to count them. */
  private measure(): PromptMeasure {
    const calibration = this.calibration;
    return { tokens: (prompt) => windowTokens(prompt, calibration.ratio), ratio: calibration.ratio };
  }

  /**
   * The SDK's own timeout runs only until the response headers, which a local server may send with
   * its first token: it must not fire before our first-token limit does (the attempt timer, not the
   * SDK, times a streamed reply).
   */
  private sdkOptions(): { maxRetries: number; timeout: number } {
    return { maxRetries: 0, timeout: Math.max(this.call.requestTimeoutMs, this.call.firstTokenTimeoutMs) };
  }

  private async *streamChat(signal: AbortSignal, messages: readonly Message[], maxTokens: number, readCount: (counted: number | null | undefined) => void): AsyncGenerator<StreamPart> {
    const client = await this.config.streamingClient();
    const stream = await client.chat.completions.create(
      {
        ...this.config.options,
        model: this.config.model,
        ...(maxTokens > 0 ? { [this.config.maxTokensField]: maxTokens } : {}),
        messages: [...messages],
        stream: true,
        // The usage (and the prompt's count, which tells a cut prompt) comes only when asked for.
        stream_options: { include_usage: true },
      } as unknown as OpenAI.ChatCompletionCreateParamsStreaming,
      { signal, ...this.sdkOptions() },
    );
    yield* answerParts(stream, readCount);
  }
}

/** A completion envelope into the requested value: refusal, or JSON content parsed tolerantly. */
export function interpretCompletion<T>(raw: unknown, replySchema: z.ZodType<T>, what: string, limit: number): T {
  const parsed = OpenAICompletion.safeParse(raw);
  if (!parsed.success) throw envelopeError("The OpenAI-compatible server", "no choices in the reply", OPENAI_URL_SETTING);
  const choice = parsed.data.choices[0];
  if (choice?.message.refusal) throw refusalError(choice.message.refusal);
  try {
    return parseReply(choice?.message.content ?? "", replySchema, "OpenAI-compatible", what);
  } catch (error) {
    // Cut off at the limit: only an object that closed before it was used (above).
    if (choice?.finish_reason === "length" && SynapseError.isInstance(error)) throw truncatedError("OpenAI-compatible", what, limit, error);
    throw error;
  }
}
