/**
 * The OpenAI-compatible (API) backend: OpenAI, OpenRouter, LM Studio, vLLM, llama.cpp server…,
 * whatever `baseURL` says. Structured output asks for `response_format: json_schema` (strict);
 * servers differ, so when one rejects it the adapter remembers and falls back to the schema in the
 * prompt, and every reply goes through tolerant parsing (fences, leading prose) and zod.
 * `message.refusal` is a refusal.
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
import { knownContextWindow, knownMaxOutput } from "../context-windows";
import { OutputLimits, outputCeiling, truncatedError, withOutputLimit, type OutputLimitContext } from "../output-limit";
import { parseReply } from "../json-repair";
import { chatMessages, promptText, type PromptPair } from "../prompts";
import { analysisRequest, oneOffRequest, pagesRequest, type StructuredRequest } from "../structured-request";
import type { RetryPolicy } from "../retry";
import { mapSdkError, sdkErrorClasses } from "../sdk-errors";
import { openaiSdk } from "./sdk";
import { OpenAIChunk, OpenAICompletion, OpenAIEmbeddingReply } from "./envelope";
import type { EmbeddingProvider } from "../embedding";

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

  constructor(private readonly config: OpenAIAdapterConfig) {
    this.promptOnly = config.structuredOutput === "prompt";
    this.call = callConfig("openai", "The OpenAI-compatible server", config);
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
      maxContext: knownContextWindow(this.config.model),
      maxOutputTokens: knownMaxOutput(this.config.model),
      supportsEmbeddings: this.embeddingModel.length > 0,
    });
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
    return streamWithPolicy(this.call, run, {
      prompt,
      mapError: (error) => this.mapError(error),
      open: (signal) => this.streamChat(signal, all, chatOutputLimit(this.config.maxTokens, run)),
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
      mapError: (error) => mapSdkError(error, sdkErrorClasses(openaiSdk.loaded), { label, model, where: this.config.where, secrets: this.config.secrets }),
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
        if (!parsed.success) throw envelopeError(label, "no embeddings in the reply");
        const byIndex = [...parsed.data.data].sort((a, b) => a.index - b.index);
        if (byIndex.length !== texts.length || byIndex.some((d, i) => d.index !== i)) throw envelopeError(label, `${byIndex.length} embeddings for ${texts.length} texts`);
        return byIndex.map((d) => d.embedding);
      },
    });
  }

  private mapError(error: unknown): SynapseError {
    return mapSdkError(error, sdkErrorClasses(openaiSdk.loaded), { label: "The OpenAI-compatible server", model: this.config.model, where: this.config.where, secrets: this.config.secrets });
  }

  private body(pair: PromptPair, schema: Record<string, unknown>, schemaName: string, withFormat: boolean, maxTokens: number): Record<string, unknown> {
    return {
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

  /** `fixedLimit`: one request at that output limit, with no raise after a cut-off reply. */
  private async structured<T>(run: RunContext, request: StructuredRequest<T>, fixedLimit?: number): Promise<T> {
    const { operation, pair, schema, replySchema, what } = request;
    const { schemaName } = request;
    const prompt = promptText(pair);
    checkCapabilities(this.capabilities(), "The OpenAI-compatible server", { inputTokens: estimateTokens(prompt) });
    const options = { maxRetries: 0, timeout: this.config.requestTimeoutMs };
    const attempt = (limit: number) => callWithPolicy(this.call, run, {
      operation,
      outputLimit: limit,
      prompt,
      mapError: (error) => this.mapError(error),
      send: async (signal) => {
        const client = await this.config.client();
        const create = (withFormat: boolean) =>
          client.chat.completions.create(this.body(pair, schema, schemaName, withFormat, limit) as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming, { ...options, signal });
        let raw: unknown;
        if (this.promptOnly) raw = await create(false);
        else {
          try {
            raw = await create(true);
          } catch (error) {
            if (!rejectsResponseFormat(error)) throw error;
            // The schema is in the prompt too, so the same request without the constraint still asks for it.
            this.promptOnly = true;
            raw = await create(false);
          }
        }
        const parsed = OpenAICompletion.safeParse(raw);
        const usage = parsed.success && parsed.data.usage ? { inputTokens: parsed.data.usage.prompt_tokens ?? 0, outputTokens: parsed.data.usage.completion_tokens ?? 0 } : null;
        return { raw, usage, ...(parsed.success ? { replyText: parsed.data.choices[0]?.message.content ?? "" } : {}) };
      },
      interpret: (raw) => interpretCompletion(raw, replySchema, what, limit),
    });
    return fixedLimit !== undefined ? attempt(fixedLimit) : withOutputLimit(run, this.output, attempt);
  }

  private async *streamChat(signal: AbortSignal, messages: readonly Message[], maxTokens: number): AsyncGenerator<StreamPart> {
    const client = await this.config.streamingClient();
    const stream = await client.chat.completions.create(
      {
        ...this.config.options,
        model: this.config.model,
        ...(maxTokens > 0 ? { [this.config.maxTokensField]: maxTokens } : {}),
        messages: [...messages],
        stream: true,
        stream_options: { include_usage: true },
      } as unknown as OpenAI.ChatCompletionCreateParamsStreaming,
      { signal, maxRetries: 0, timeout: this.config.requestTimeoutMs },
    );
    let finished = false;
    let refusal = "";
    for await (const raw of stream) {
      const parsed = OpenAIChunk.safeParse(raw);
      if (!parsed.success) throw envelopeError("The OpenAI-compatible server", "a stream chunk without choices");
      const chunk = parsed.data;
      for (const choice of chunk.choices ?? []) {
        if (choice.delta?.content) yield { type: "text", text: choice.delta.content };
        if (choice.delta?.refusal) refusal += choice.delta.refusal;
        if (choice.finish_reason) finished = true;
      }
      if (chunk.usage) yield { type: "usage", usage: { inputTokens: chunk.usage.prompt_tokens ?? 0, outputTokens: chunk.usage.completion_tokens ?? 0 } };
    }
    if (refusal) throw refusalError(refusal);
    if (!finished) throw new SynapseError("transport", "The OpenAI-compatible stream ended before the reply was complete; try again.");
  }
}

function refusalError(text: string): SynapseError {
  return new SynapseError("refusal", `The model declined to answer ("${text.slice(0, 160)}"); the note may touch a topic it will not write about.`);
}

/** A completion envelope into the requested value: refusal, or JSON content parsed tolerantly. */
export function interpretCompletion<T>(raw: unknown, replySchema: z.ZodType<T>, what: string, limit: number): T {
  const parsed = OpenAICompletion.safeParse(raw);
  if (!parsed.success) throw envelopeError("The OpenAI-compatible server", "no choices in the reply");
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
