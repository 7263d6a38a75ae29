/**
 * The Ollama (Local) backend. The model is configuration: it is never pulled for the user. The
 * first model call reads `/api/show` once, which both confirms the model is installed (a clear
 * "run `ollama pull`" error before a large prompt is sent) and gives the model's own context
 * length and capabilities, so `capabilities()` becomes more precise, never more generous.
 *
 * Every request asks for a context window sized to it (context-window.ts) and an output limit sized
 * to its step (step-output.ts); structured requests stream, so a slow model on a CPU is timed by
 * silence, not by the length of its reply.
 */
import { defineCapabilities, type ProviderCapabilities } from "../../core/capabilities";
import { SynapseError } from "../../core/errors";
import type { GenerationInput, InferenceProvider, StructuredAsk } from "../../core/provider";
import { chatOutputLimit, type RunContext } from "../../core/run-context";
import type { Analysis, Message, WikiPage } from "../../core/schemas";
import { callConfig, callWithPolicy, checkCapabilities, estimateTokens, streamWithPolicy, type CallConfig } from "../call";
import type { EmbeddingProvider } from "../embedding";
import { envelopeError } from "../classify-error";
import { OLLAMA_HOST_SETTING } from "../server-setting";
import { parseReply } from "../../core/json-repair";
import { OutputLimits, truncatedError, withOutputLimit, type OutputLimitContext } from "../output-limit";
import { chatMessages, promptText, type PromptPair } from "../prompts";
import { analysisRequest, oneOffRequest, pagesRequest, type StructuredRequest } from "../structured-request";
import { parseRetryAfter, type RetryPolicy } from "../retry";
import type { RunLogger } from "../../core/log";
import type { OllamaConnect, RequestBinding } from "./client";
import { OllamaEmbedReply, OllamaShowReply, contextLengthOf, type OllamaShowReply as ShowReply } from "./envelope";
import { mapOllamaError } from "./errors";
import { planWindow, promptCutError, promptFilledWindowError, windowCeiling, WINDOW_STEP, type WindowPlan } from "./context-window";
import { checkPromptRead, isWindowOutgrown, type PromptOf, type SentPrompt } from "../prompt-read";
import { streamAnswer, usageOf } from "./answer-stream";
import { windowTokens } from "../../core/window-tokens";
import { stepOutputLimit, type OutputStep } from "./step-output";
import { planEmbedding } from "./embed-window";
import { streamedReply } from "./stream-reply";
import { fitPrompt, replyReserve, type PromptMeasure } from "../prompt-fit";
import { calibrationFor, type TokenCalibration } from "../token-calibration";

export interface OllamaAdapterConfig {
  readonly connect: OllamaConnect;
  /** Host for messages (no credentials: the factory rejects those). */
  readonly host: string;
  readonly isLocal: boolean;
  readonly model: string;
  /** Empty when no embedding model is configured. */
  readonly embeddingModel: string;
  /** Ollama `options` (temperature…), reserved keys already removed; num_ctx and num_predict are set per request. */
  readonly options: Readonly<Record<string, string | number | boolean>>;
  /** Caps each step's output limit (num_predict); 0: each step's own. */
  readonly maxTokens: number;
  /** The largest context window (num_ctx) a request may ask for ("Context window"). */
  readonly contextWindow: number;
  /** The user's claim that the model does tool calling; cross-checked against /api/show. */
  readonly declaresTools: boolean;
  readonly requestTimeoutMs: number;
  readonly firstTokenTimeoutMs?: number;
  readonly retry: RetryPolicy;
  readonly logger?: RunLogger;
}

/** A structured request's prompt as packed for the window, and its two measures. */
interface PackedPrompt {
  readonly pair: PromptPair;
  readonly prompt: string;
  /** The call estimate (chars/4), what a cut is told by. */
  readonly estimated: number;
  /** The window measure, calibrated: what the window is sized by. */
  readonly tokens: number;
}

/** Each structured step keeps its own output limit per run (a raise for the pages is not one for the analysis). */
type StructuredStep = Exclude<OutputStep, "answer">;

/** What /api/show told us, kept for the life of the provider. */
interface ModelInfo {
  readonly contextLength: number;
  readonly capabilities: readonly string[] | null;
}

export class OllamaProvider implements InferenceProvider, EmbeddingProvider {
  private info: ModelInfo | null = null;
  private embedInfo: ModelInfo | null = null;
  private readonly call: CallConfig;
  private readonly limits: Readonly<Record<StructuredStep, OutputLimits>>;
  private readonly calibration: TokenCalibration;

  constructor(private readonly config: OllamaAdapterConfig) {
    this.call = callConfig("ollama", "Ollama", config);
    const limits = (step: StructuredStep) => new OutputLimits(stepOutputLimit(step, config.maxTokens));
    this.limits = { analysis: limits("analysis"), pages: limits("pages"), check: limits("check") };
    this.calibration = calibrationFor("ollama", config.host, config.model);
  }

  /** The largest window a request may ask for: the setting, within what the model reported. */
  windowCeiling(): number {
    return windowCeiling(this.config.contextWindow, this.info?.contextLength ?? 0);
  }

  capabilities(): ProviderCapabilities {
    const reported = this.info?.capabilities;
    // The window requests ask for, at most: Ollama runs every request in the window it asks for.
    const maxContext = this.windowCeiling();
    return defineCapabilities({
      name: "ollama",
      mode: "local",
      model: this.config.model || null,
      isLocal: this.config.isLocal,
      // A claim the model itself contradicts is not declared.
      supportsTools: this.config.declaresTools && (reported ? reported.includes("tools") : true),
      supportsAgenticLoop: false,
      structuredOutput: "json_schema",
      streaming: true,
      maxContext,
      // A reply can fill at most the context the prompt leaves free.
      maxOutputTokens: maxContext,
      supportsEmbeddings: this.config.embeddingModel.length > 0,
    });
  }

  /** `promptTokens`: the prompt as it is packed now (it may be packed again after a cut). */
  private outputContext(step: StructuredStep, promptTokens: () => number): OutputLimitContext {
    const room = () => Math.max(0, this.windowCeiling() - promptTokens());
    return {
      label: "Ollama",
      limits: this.limits[step],
      ceiling: room,
      advice: (limit) =>
        limit + WINDOW_STEP < room()
          ? `Raise "Max output tokens" under Local: Ollama in the settings.`
          : `The prompt and the reply filled the ${this.windowCeiling()}-token context window; raise "Context window" under Local: Ollama if the machine has the memory, or ingest a shorter note.`,
    };
  }

  async analyze(sourceText: string, vaultContext: string, run: RunContext): Promise<Analysis> {
    return this.structured(run, "analysis", analysisRequest("ollama", sourceText, vaultContext, run));
  }

  async generate(input: GenerationInput, run: RunContext): Promise<WikiPage[]> {
    return (await this.structured(run, "pages", pagesRequest("ollama", input, run))).pages;
  }

  /** Held to the run's cap and never raised: a verdict cut off at it is simply unreadable. */
  async ask<T>(request: StructuredAsk<T>, run: RunContext): Promise<T> {
    return this.structured(run, "check", oneOffRequest("ollama", request), chatOutputLimit(stepOutputLimit("check", this.config.maxTokens), run));
  }

  chat(messages: Message[], retrievalContext: string, run: RunContext): AsyncIterable<string> {
    const all = chatMessages(messages, retrievalContext, run.wikiLanguage);
    const prompt = all.map((m) => `${m.role}: ${m.content}`).join("\n\n");
    const sent = { prompt, estimated: estimateTokens(prompt) };
    checkCapabilities(this.capabilities(), "Ollama", { streaming: true, inputTokens: sent.estimated });
    // Questions get a bounded answer too, and a window that holds the excerpts they are sent.
    const window = planWindow(this.measure().tokens(prompt), chatOutputLimit(stepOutputLimit("answer", this.config.maxTokens), run), this.windowCeiling(), this.config.model);
    let retryAfterMs: number | undefined;
    return streamWithPolicy(this.call, run, {
      prompt,
      mapError: (error) => mapOllamaError(error, { host: this.config.host, model: this.config.model, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) }),
      open: (signal) => {
        const binding: RequestBinding = { signal, streaming: true, observe: (r) => (retryAfterMs = retryAfterOf(r)) };
        const request = { model: this.config.model, messages: [...all], stream: true as const, options: this.requestOptions(window) };
        // Read whole, or the answer's own failure (answer-stream.ts): the same checks as a structured reply's.
        return streamAnswer(this.config.connect, binding, request, (counted) => this.checkPromptRead(counted, sent, window, "question"));
      },
    });
  }

  get embeddingModel(): string {
    return this.config.embeddingModel;
  }

  async embed(texts: readonly string[], run: RunContext): Promise<number[][]> {
    checkCapabilities({ ...this.capabilities(), model: this.config.embeddingModel || this.config.model || null }, "Ollama", { embeddings: true });
    if (texts.length === 0) return [];
    // Sized to the embedding model's own window, cut by us rather than silently by the server (embed-window.ts).
    const plan = planEmbedding(texts, this.config.contextWindow, (await this.embeddingInfo(run)).contextLength);
    let retryAfterMs: number | undefined;
    const call: CallConfig = { ...this.call, model: this.config.embeddingModel };
    return callWithPolicy(call, run, {
      operation: "embed",
      prompt: plan.texts.join("\n---\n"),
      mapError: (error) => mapOllamaError(error, { host: this.config.host, model: this.config.embeddingModel, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) }),
      send: async (signal) => {
        const client = await this.config.connect({ signal, observe: (r) => (retryAfterMs = retryAfterOf(r)) });
        const raw: unknown = await client.embed({ model: this.config.embeddingModel, input: plan.texts, truncate: false, options: { num_ctx: plan.numCtx } });
        const parsed = OllamaEmbedReply.safeParse(raw);
        const usage = parsed.success ? { inputTokens: parsed.data.prompt_eval_count ?? 0, outputTokens: 0 } : null;
        return { raw, usage };
      },
      interpret: (raw) => {
        const parsed = OllamaEmbedReply.safeParse(raw);
        if (!parsed.success) throw envelopeError("Ollama", "no embeddings in the reply", OLLAMA_HOST_SETTING);
        if (parsed.data.embeddings.length !== texts.length) throw envelopeError("Ollama", `${parsed.data.embeddings.length} embeddings for ${texts.length} texts`, OLLAMA_HOST_SETTING);
        return parsed.data.embeddings;
      },
    });
  }

  /** The embedding model's /api/show, read once (a missing model fails here, before any text is sent). */
  private async embeddingInfo(run: RunContext): Promise<ModelInfo> {
    if (this.embedInfo) return this.embedInfo;
    const show = await this.show(this.config.embeddingModel, run);
    this.embedInfo = { contextLength: contextLengthOf(show), capabilities: show.capabilities ?? null };
    return this.embedInfo;
  }

  /** Reads /api/show once; a missing model fails here, before the prompt is sent. */
  async modelInfo(run: RunContext): Promise<ModelInfo> {
    if (this.info) return this.info;
    const show = await this.show(this.config.model, run);
    this.info = { contextLength: contextLengthOf(show), capabilities: show.capabilities ?? null };
    return this.info;
  }

  /** One /api/show call under the policy (also used by the readiness check). */
  async show(model: string, run: RunContext): Promise<ShowReply> {
    let retryAfterMs: number | undefined;
    return callWithPolicy(this.call, run, {
      operation: "readiness",
      prompt: "",
      mapError: (error) => mapOllamaError(error, { host: this.config.host, model, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) }),
      send: async (signal) => {
        const client = await this.config.connect({ signal, observe: (r) => (retryAfterMs = retryAfterOf(r)) });
        const raw: unknown = await client.show({ model });
        return { raw, usage: null };
      },
      interpret: (raw) => {
        const parsed = OllamaShowReply.safeParse(raw);
        if (!parsed.success) throw envelopeError("Ollama", "/api/show did not describe the model", OLLAMA_HOST_SETTING);
        return parsed.data;
      },
    });
  }

  /** `fixedLimit`: one request at that output limit, with no raise after a cut-off reply. */
  private async structured<T>(run: RunContext, step: StructuredStep, request: StructuredRequest<T>, fixedLimit?: number): Promise<T> {
    const { operation, schema, replySchema, what } = request;
    checkCapabilities(this.capabilities(), "Ollama", {});
    await this.modelInfo(run);
    // The note packed within the largest window allowed, less its reply's share (prompt-fit.ts),
    // by the measure as the calibration has it now.
    const ceiling = this.windowCeiling();
    const reserve = replyReserve(fixedLimit ?? this.limits[step].current(run), ceiling);
    const pack = (): PackedPrompt => {
      const pair = fitPrompt(request, ceiling - reserve, this.measure());
      const prompt = promptText(pair);
      return { pair, prompt, estimated: estimateTokens(prompt), tokens: this.measure().tokens(prompt) };
    };
    let packed = pack();
    // Refused before anything is sent, naming the setting, when no window allowed can hold it.
    planWindow(packed.tokens, 0, ceiling, this.config.model);
    checkCapabilities(this.capabilities(), "Ollama", { inputTokens: packed.estimated });
    const output = this.outputContext(step, () => packed.tokens);
    let retryAfterMs: number | undefined;
    const send = (sent: PackedPrompt, window: WindowPlan) =>
      callWithPolicy(this.call, run, {
        operation,
        outputLimit: window.numPredict,
        prompt: sent.prompt,
        streamed: true,
        mapError: (error) => mapOllamaError(error, { host: this.config.host, model: this.config.model, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) }),
        send: async (signal, received) => {
          const client = await this.config.connect({ signal, streaming: true, observe: (r) => (retryAfterMs = retryAfterOf(r)) });
          const reply = await streamedReply(
            client,
            {
              model: this.config.model,
              messages: [
                { role: "system", content: sent.pair.system },
                { role: "user", content: sent.pair.user },
              ],
              format: schema,
              stream: true,
              // Reasoning is output the structured reply does not need: off where the model takes the switch.
              ...(this.thinks() ? { think: false } : {}),
              options: this.requestOptions(window),
            },
            signal,
            received,
          );
          return { raw: reply, usage: usageOf(reply), replyText: reply.message.content ?? "" };
        },
        interpret: (reply) => {
          // A cut prompt lost its instructions: whatever came back is not an answer to them.
          this.checkPromptRead(reply.prompt_eval_count, sent, window);
          try {
            return parseReply(reply.message.content ?? "", replySchema, "Ollama", what);
          } catch (error) {
            // Cut off at the limit: only an object that closed before it was used (above).
            if (reply.done_reason === "length" && SynapseError.isInstance(error)) throw truncatedError("Ollama", what, window.numPredict, error);
            throw error;
          }
        },
      });
    let packedAgain = false;
    const attempt = async (limit: number) => {
      const window = planWindow(packed.tokens, limit, ceiling, this.config.model);
      try {
        return await send(packed, window);
      } catch (error) {
        // The prompt counted more than the window it was sized for, and the calibration learned at
        // least that much: packed again by it and sent once more in the largest window allowed —
        // never the same request (a second cut is the failure). When neither the prompt nor the
        // window can change, the cut stands; a prompt the new measure finds too long for every
        // window allowed is refused before sending, naming the setting.
        if (!isWindowOutgrown(error) || packedAgain) throw error;
        packedAgain = true;
        const before = packed;
        packed = pack();
        if (packed.prompt === before.prompt && window.numCtx >= ceiling) throw error;
        const again = planWindow(packed.tokens, limit, ceiling, this.config.model);
        const how = packed.prompt === before.prompt ? `sending again in a ${ceiling}-token context window` : `sending the note again in fewer parts, within the ${ceiling}-token context window`;
        run.progress?.({ type: "activity", message: `Ollama counted more prompt tokens than estimated; ${how}.` });
        return send(packed, { numCtx: ceiling, numPredict: again.numPredict });
      }
    };
    return fixedLimit !== undefined ? attempt(fixedLimit) : withOutputLimit(run, output, attempt);
  }

  /** Throws when the server did not read the whole prompt (../prompt-read.ts); its count calibrates the next requests. */
  private checkPromptRead(counted: number | null | undefined, sent: SentPrompt, window: WindowPlan, of: PromptOf = "note"): void {
    checkPromptRead(counted, sent, window.numCtx, this.calibration, {
      cut: (reported) => promptCutError(reported, sent.estimated, window.numCtx, of),
      filled: (reported) => promptFilledWindowError(reported, sent.estimated, window.numCtx, of),
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
   * Whether /api/show lists "thinking": only such a model is sent `think` (older servers and other
   * models may refuse the field). gpt-oss takes levels only and keeps reasoning; it stays out of pages
   * all the same, because only `message.content` is read.
   */
  private thinks(): boolean {
    return this.info?.capabilities?.includes("thinking") ?? false;
  }

  /** The user's options, then the window and the limit this request asks for. */
  private requestOptions(window: { readonly numCtx: number; readonly numPredict: number }): Record<string, string | number | boolean> {
    return { ...this.config.options, num_ctx: window.numCtx, num_predict: window.numPredict };
  }
}

function retryAfterOf(response: Response): number | undefined {
  return response.ok ? undefined : parseRetryAfter((name) => response.headers.get(name));
}
