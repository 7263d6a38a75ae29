/**
 * The Ollama (Local) backend. The model is configuration: it is never pulled for the user. The
 * first model call reads `/api/show` once, which both confirms the model is installed (a clear
 * "run `ollama pull`" error before a large prompt is sent) and gives the model's own context
 * length and capabilities, so `capabilities()` becomes more precise, never more generous.
 */
import { defineCapabilities, type ProviderCapabilities } from "../../core/capabilities";
import { SynapseError } from "../../core/errors";
import type { InferenceProvider } from "../../core/provider";
import { chatOutputLimit, type RunContext } from "../../core/run-context";
import type { Analysis, Message, WikiPage } from "../../core/schemas";
import { callConfig, callWithPolicy, checkCapabilities, estimateTokens, streamWithPolicy, type CallConfig, type StreamPart, type TokenUsage } from "../call";
import type { EmbeddingProvider } from "../embedding";
import { envelopeError } from "../classify-error";
import { parseReply } from "../json-repair";
import { OutputLimits, outputCeiling, truncatedError, withOutputLimit, type OutputLimitContext } from "../output-limit";
import { chatMessages, promptText } from "../prompts";
import { analysisRequest, pagesRequest, type StructuredRequest } from "../structured-request";
import { parseRetryAfter, type RetryPolicy } from "../retry";
import type { RunLogger } from "../../core/log";
import type { OllamaConnect, RequestBinding } from "./client";
import { OllamaChatReply, OllamaEmbedReply, OllamaShowReply, contextLengthOf, type OllamaShowReply as ShowReply } from "./envelope";
import { mapOllamaError } from "./errors";

export interface OllamaAdapterConfig {
  readonly connect: OllamaConnect;
  /** Host for messages (no credentials: the factory rejects those). */
  readonly host: string;
  readonly isLocal: boolean;
  readonly model: string;
  /** Empty when no embedding model is configured. */
  readonly embeddingModel: string;
  /** Ollama `options` (temperature, num_ctx…), reserved keys already removed. */
  readonly options: Readonly<Record<string, string | number | boolean>>;
  /** Output tokens per reply, sent as num_predict; 0 leaves it to Ollama (until the context is full). */
  readonly maxTokens: number;
  /** The user's claim that the model does tool calling; cross-checked against /api/show. */
  readonly declaresTools: boolean;
  readonly requestTimeoutMs: number;
  readonly retry: RetryPolicy;
  readonly logger?: RunLogger;
}

/** What /api/show told us, kept for the life of the provider. */
interface ModelInfo {
  readonly contextLength: number;
  readonly capabilities: readonly string[] | null;
}

export class OllamaProvider implements InferenceProvider, EmbeddingProvider {
  private info: ModelInfo | null = null;
  private readonly call: CallConfig;
  private readonly output: OutputLimitContext;

  constructor(private readonly config: OllamaAdapterConfig) {
    this.call = callConfig("ollama", "Ollama", config);
    this.output = {
      label: "Ollama",
      limits: new OutputLimits(config.maxTokens),
      ceiling: () => outputCeiling(config.maxTokens, this.capabilities()),
      advice: (limit) =>
        limit <= 0
          ? "Ollama ends a reply when the model's context is full; ingest a shorter note or pick a model with a larger context."
          : limit < outputCeiling(config.maxTokens, this.capabilities())
            ? `Raise "Max output tokens" under Local: Ollama in the settings.`
            : "That is the model's whole context; ingest a shorter note.",
    };
  }

  capabilities(): ProviderCapabilities {
    const numCtx = Number(this.config.options.num_ctx);
    const reported = this.info?.capabilities;
    const maxContext = Number.isFinite(numCtx) && numCtx > 0 ? numCtx : (this.info?.contextLength ?? 0);
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
      // num_ctx is what Ollama will actually use; otherwise the model's own limit.
      maxContext,
      // A reply can fill at most the context the prompt leaves free.
      maxOutputTokens: maxContext,
      supportsEmbeddings: this.config.embeddingModel.length > 0,
    });
  }

  async analyze(sourceText: string, vaultContext: string, run: RunContext): Promise<Analysis> {
    return this.structured(run, analysisRequest("ollama", sourceText, vaultContext, run));
  }

  async generate(analysis: Analysis, retrievalContext: string, run: RunContext): Promise<WikiPage[]> {
    return (await this.structured(run, pagesRequest("ollama", analysis, retrievalContext, run))).pages;
  }

  chat(messages: Message[], retrievalContext: string, run: RunContext): AsyncIterable<string> {
    const all = chatMessages(messages, retrievalContext, run.wikiLanguage);
    const prompt = all.map((m) => `${m.role}: ${m.content}`).join("\n\n");
    checkCapabilities(this.capabilities(), "Ollama", { streaming: true, inputTokens: estimateTokens(prompt) });
    let retryAfterMs: number | undefined;
    return streamWithPolicy(this.call, run, {
      prompt,
      mapError: (error) => mapOllamaError(error, { host: this.config.host, model: this.config.model, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) }),
      open: (signal) => {
        const binding: RequestBinding = { signal, streaming: true, observe: (r) => (retryAfterMs = retryAfterOf(r)) };
        return this.streamChat(binding, all, run.maxOutputTokens !== undefined ? chatOutputLimit(this.config.maxTokens, run) : undefined);
      },
    });
  }

  get embeddingModel(): string {
    return this.config.embeddingModel;
  }

  async embed(texts: readonly string[], run: RunContext): Promise<number[][]> {
    checkCapabilities({ ...this.capabilities(), model: this.config.embeddingModel || this.config.model || null }, "Ollama", { embeddings: true });
    if (texts.length === 0) return [];
    let retryAfterMs: number | undefined;
    const call: CallConfig = { ...this.call, model: this.config.embeddingModel };
    return callWithPolicy(call, run, {
      operation: "embed",
      prompt: texts.join("\n---\n"),
      mapError: (error) => mapOllamaError(error, { host: this.config.host, model: this.config.embeddingModel, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) }),
      send: async (signal) => {
        const client = await this.config.connect({ signal, observe: (r) => (retryAfterMs = retryAfterOf(r)) });
        const raw: unknown = await client.embed({ model: this.config.embeddingModel, input: [...texts] });
        const parsed = OllamaEmbedReply.safeParse(raw);
        const usage = parsed.success ? { inputTokens: parsed.data.prompt_eval_count ?? 0, outputTokens: 0 } : null;
        return { raw, usage };
      },
      interpret: (raw) => {
        const parsed = OllamaEmbedReply.safeParse(raw);
        if (!parsed.success) throw envelopeError("Ollama", "no embeddings in the reply");
        if (parsed.data.embeddings.length !== texts.length) throw envelopeError("Ollama", `${parsed.data.embeddings.length} embeddings for ${texts.length} texts`);
        return parsed.data.embeddings;
      },
    });
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
        if (!parsed.success) throw envelopeError("Ollama", "/api/show did not describe the model");
        return parsed.data;
      },
    });
  }

  private async structured<T>(run: RunContext, request: StructuredRequest<T>): Promise<T> {
    const { operation, pair, schema, replySchema, what } = request;
    const prompt = promptText(pair);
    checkCapabilities(this.capabilities(), "Ollama", {});
    await this.modelInfo(run);
    checkCapabilities(this.capabilities(), "Ollama", { inputTokens: estimateTokens(prompt) });
    let retryAfterMs: number | undefined;
    return withOutputLimit(run, this.output, (limit) => callWithPolicy(this.call, run, {
      operation,
      outputLimit: limit,
      prompt,
      mapError: (error) => mapOllamaError(error, { host: this.config.host, model: this.config.model, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) }),
      send: async (signal) => {
        const client = await this.config.connect({ signal, observe: (r) => (retryAfterMs = retryAfterOf(r)) });
        const raw: unknown = await client.chat({
          model: this.config.model,
          messages: [
            { role: "system", content: pair.system },
            { role: "user", content: pair.user },
          ],
          format: schema,
          stream: false,
          options: { ...this.config.options, ...(limit > 0 ? { num_predict: limit } : {}) },
        });
        const parsed = OllamaChatReply.safeParse(raw);
        return { raw, usage: parsed.success ? usageOf(parsed.data) : null, ...(parsed.success ? { replyText: parsed.data.message.content ?? "" } : {}) };
      },
      interpret: (raw) => {
        const parsed = OllamaChatReply.safeParse(raw);
        if (!parsed.success) throw envelopeError("Ollama", "no message in the reply");
        try {
          return parseReply(parsed.data.message.content ?? "", replySchema, "Ollama", what);
        } catch (error) {
          // Cut off at the limit: only an object that closed before it was used (above).
          if (parsed.data.done_reason === "length" && SynapseError.isInstance(error)) throw truncatedError("Ollama", what, limit > 0 ? limit : null, error);
          throw error;
        }
      },
    }));
  }

  private async *streamChat(binding: RequestBinding, messages: readonly Message[], limit: number | undefined): AsyncGenerator<StreamPart> {
    const client = await this.config.connect(binding);
    // A chat is left to the server's own limit (or the options' num_predict) unless the run caps it.
    const stream = await client.chat({ model: this.config.model, messages: [...messages], stream: true, options: { ...this.config.options, ...(limit !== undefined ? { num_predict: limit } : {}) } });
    // Closing the iterator (a caller that stops reading, a cancel) must close the connection.
    const stop = () => stream.abort();
    binding.signal.addEventListener("abort", stop, { once: true });
    try {
      for await (const chunk of stream) {
        const parsed = OllamaChatReply.safeParse(chunk);
        if (!parsed.success) throw envelopeError("Ollama", "a stream line without a message");
        const text = parsed.data.message.content ?? "";
        if (text) yield { type: "text", text };
        if (parsed.data.done) {
          yield { type: "usage", usage: usageOf(parsed.data) };
          return;
        }
      }
    } finally {
      binding.signal.removeEventListener("abort", stop);
    }
  }
}

function usageOf(reply: OllamaChatReply): TokenUsage {
  return { inputTokens: reply.prompt_eval_count ?? 0, outputTokens: reply.eval_count ?? 0 };
}

function retryAfterOf(response: Response): number | undefined {
  return response.ok ? undefined : parseRetryAfter((name) => response.headers.get(name));
}
