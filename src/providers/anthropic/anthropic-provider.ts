/**
 * The Anthropic (API) backend. Structured output is a forced tool call (works on every model and
 * proxy) or, when the user picks it, `output_config` with a JSON schema. `stop_reason: "refusal"`
 * is a refusal; nothing else is, however the prose reads.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { z } from "zod";
import { defineCapabilities, type ProviderCapabilities } from "../../core/capabilities";
import { SynapseError } from "../../core/errors";
import type { RunLogger } from "../../core/log";
import type { GenerationInput, InferenceProvider, StructuredAsk } from "../../core/provider";
import { chatOutputLimit, type RunContext } from "../../core/run-context";
import type { Analysis, Message, WikiPage } from "../../core/schemas";
import { callConfig, callWithPolicy, checkCapabilities, estimateTokens, streamWithPolicy, type CallConfig, type StreamPart } from "../call";
import { envelopeError } from "../classify-error";
import { ANTHROPIC_URL_SETTING } from "../server-setting";
import { knownContextWindow, knownMaxOutput } from "../context-windows";
import { OutputLimits, outputCeiling, truncatedError, withOutputLimit, type OutputLimitContext } from "../output-limit";
import { parseReply } from "../../core/json-repair";
import { chatMessages, promptText, type PromptPair } from "../prompts";
import { analysisRequest, oneOffRequest, pagesRequest, type StructuredRequest } from "../structured-request";
import type { RetryPolicy } from "../retry";
import { mapSdkError, sdkErrorClasses } from "../sdk-errors";
import { anthropicSdk } from "./sdk";
import { AnthropicMessage, AnthropicStreamEvent, tokenUsageOf } from "./envelope";
import { cachedPrompt, sentPrefixes } from "./prompt-cache";
import { streamedMessage } from "./stream-message";

export type AnthropicClient = Pick<Anthropic, "messages">;

export interface AnthropicAdapterConfig {
  /** The client, built (and the SDK loaded) on the first request. */
  readonly client: () => Promise<AnthropicClient>;
  /** Same settings over the streaming transport. */
  readonly streamingClient: () => Promise<AnthropicClient>;
  /** Display form of the endpoint (no credentials). */
  readonly where: string;
  readonly isLocal: boolean;
  readonly model: string;
  readonly maxTokens: number;
  readonly structuredOutput: "tool" | "json_schema";
  readonly options: Readonly<Record<string, string | number | boolean>>;
  readonly requestTimeoutMs: number;
  /** A streamed answer's first piece must arrive within this. */
  readonly firstTokenTimeoutMs?: number;
  readonly retry: RetryPolicy;
  /** The API key, only so it can be scrubbed from anything we log or show. */
  readonly secrets: readonly string[];
  readonly logger?: RunLogger;
}

const TOOL_NAME = "submit";

export class AnthropicProvider implements InferenceProvider {
  private readonly call: CallConfig;

  private readonly output: OutputLimitContext;

  constructor(private readonly config: AnthropicAdapterConfig) {
    this.call = callConfig("anthropic", "Anthropic", config);
    this.output = {
      label: "Anthropic",
      limits: new OutputLimits(config.maxTokens),
      ceiling: () => outputCeiling(config.maxTokens, this.capabilities()),
      advice: (limit) =>
        limit < outputCeiling(config.maxTokens, this.capabilities())
          ? `Raise "Max output tokens" under API: Anthropic in the settings.`
          : `That is the most ${config.model} declares; ingest a shorter note.`,
    };
  }

  capabilities(): ProviderCapabilities {
    return defineCapabilities({
      name: "anthropic",
      mode: "api",
      model: this.config.model || null,
      isLocal: this.config.isLocal,
      supportsTools: true,
      supportsAgenticLoop: false,
      structuredOutput: this.config.structuredOutput === "tool" ? "tool_call" : "json_schema",
      streaming: true,
      maxContext: knownContextWindow(this.config.model),
      maxOutputTokens: knownMaxOutput(this.config.model),
      supportsEmbeddings: false,
    });
  }

  async analyze(sourceText: string, vaultContext: string, run: RunContext): Promise<Analysis> {
    return this.structured(run, analysisRequest("anthropic", sourceText, vaultContext, run));
  }

  async generate(input: GenerationInput, run: RunContext): Promise<WikiPage[]> {
    return (await this.structured(run, pagesRequest("anthropic", input, run))).pages;
  }

  /** Held to the run's cap and never raised: a verdict cut off at it is simply unreadable. */
  async ask<T>(request: StructuredAsk<T>, run: RunContext): Promise<T> {
    return this.structured(run, oneOffRequest("anthropic", request), chatOutputLimit(this.config.maxTokens, run));
  }

  chat(messages: Message[], retrievalContext: string, run: RunContext): AsyncIterable<string> {
    const all = chatMessages(messages, retrievalContext, run.wikiLanguage);
    const system = all.filter((m) => m.role === "system").map((m) => m.content).join("\n\n");
    const turns = all.filter((m) => m.role !== "system").map((m) => ({ role: m.role as "user" | "assistant", content: m.content }));
    const prompt = all.map((m) => `${m.role}: ${m.content}`).join("\n\n");
    checkCapabilities(this.capabilities(), "Anthropic", { streaming: true, inputTokens: estimateTokens(prompt) });
    return streamWithPolicy(this.call, run, {
      prompt,
      mapError: (error) => this.mapError(error),
      open: (signal) => this.streamChat(signal, system, turns, chatOutputLimit(this.config.maxTokens, run)),
    });
  }

  private mapError(error: unknown): SynapseError {
    return mapSdkError(error, sdkErrorClasses(anthropicSdk.loaded), { label: "Anthropic", model: this.config.model, where: this.config.where, secrets: this.config.secrets, setting: ANTHROPIC_URL_SETTING });
  }

  private body(pair: PromptPair, schema: Record<string, unknown>, what: string, maxTokens: number): Record<string, unknown> {
    const tools = [{ name: TOOL_NAME, description: `Submit ${what} as structured data.`, input_schema: schema }];
    const constraint =
      this.config.structuredOutput === "tool"
        ? { tools, tool_choice: { type: "tool", name: TOOL_NAME } }
        : { output_config: { format: { type: "json_schema", schema } } };
    // What repeats from note to note is marked for the prompt cache (prompt-cache.ts); the tool comes before the system prompt in it.
    const prompt = cachedPrompt(pair, this.config.structuredOutput === "tool" ? JSON.stringify(tools) : "", this.config.model, sentPrefixes(`${this.config.where} ${this.config.model}`));
    return {
      ...this.config.options,
      model: this.config.model,
      max_tokens: maxTokens,
      system: prompt.system,
      messages: [{ role: "user", content: prompt.user }],
      ...constraint,
    };
  }

  /** `fixedLimit`: one request at that output limit, with no raise after a cut-off reply. */
  private async structured<T>(run: RunContext, request: StructuredRequest<T>, fixedLimit?: number): Promise<T> {
    const { operation, pair, schema, replySchema, what } = request;
    const prompt = promptText(pair);
    checkCapabilities(this.capabilities(), "Anthropic", { inputTokens: estimateTokens(prompt) });
    const attempt = (limit: number) => {
      const body = this.body(pair, schema, what, limit) as unknown as Anthropic.MessageCreateParamsStreaming;
      return callWithPolicy(this.call, run, {
      operation,
      outputLimit: limit,
      prompt,
      mapError: (error) => this.mapError(error),
      // Streamed, so a long reply is timed by silence between tokens, not by its length.
      streamed: true,
      send: async (signal, received) => {
        const client = await this.config.streamingClient();
        const stream = await client.messages.create({ ...body, stream: true }, { signal, ...this.sdkOptions() });
        const raw = await streamedMessage(stream, received);
        const usage = raw.usage ? tokenUsageOf(raw.usage) : null;
        return { raw, usage, replyText: JSON.stringify(raw.content) };
      },
      interpret: (raw) => interpretMessage(raw, replySchema, what, limit),
      });
    };
    return fixedLimit !== undefined ? attempt(fixedLimit) : withOutputLimit(run, this.output, attempt);
  }

  /**
   * The SDK's own timeout runs only until the response headers: it must not fire before our
   * first-token limit does (the attempt timer, not the SDK, times a streamed reply).
   */
  private sdkOptions(): { maxRetries: number; timeout: number } {
    return { maxRetries: 0, timeout: Math.max(this.call.requestTimeoutMs, this.call.firstTokenTimeoutMs) };
  }

  private async *streamChat(signal: AbortSignal, system: string, turns: readonly { role: "user" | "assistant"; content: string }[], maxTokens: number): AsyncGenerator<StreamPart> {
    const client = await this.config.streamingClient();
    const stream = await client.messages.create(
      { ...this.config.options, model: this.config.model, max_tokens: maxTokens, system, messages: [...turns], stream: true } as unknown as Anthropic.MessageCreateParamsStreaming,
      { signal, ...this.sdkOptions() },
    );
    // The input (its cache reads and writes among it) from message_start, the output from message_delta.
    let input = tokenUsageOf({});
    let outputTokens = 0;
    let stopReason: string | null = null;
    const usage = (): StreamPart => ({ type: "usage", usage: { ...input, outputTokens } });
    for await (const raw of stream) {
      const parsed = AnthropicStreamEvent.safeParse(raw);
      if (!parsed.success) throw envelopeError("Anthropic", "a stream event without a type", ANTHROPIC_URL_SETTING);
      const event = parsed.data;
      if (event.type === "message_start") {
        input = tokenUsageOf(event.message?.usage ?? {});
        // Reported now, so a stream cut before its end still counts the input it was billed for.
        yield usage();
      } else if (event.type === "content_block_delta" && event.delta?.type === "text_delta" && event.delta.text) {
        yield { type: "text", text: event.delta.text };
      } else if (event.type === "message_delta") {
        stopReason = event.delta?.stop_reason ?? stopReason;
        outputTokens = event.usage?.output_tokens ?? outputTokens;
        yield usage();
      } else if (event.type === "message_stop") {
        yield usage();
        if (stopReason === "refusal") throw refusal();
        return;
      }
    }
    throw new SynapseError("transport", "The Anthropic stream ended before the reply was complete; try again.");
  }
}

function refusal(): SynapseError {
  return new SynapseError("refusal", "Anthropic declined to answer (stop reason \"refusal\"); the note may touch a topic the model will not write about.");
}

/** A message envelope into the requested value: refusal, tool input, or JSON text. */
export function interpretMessage<T>(raw: unknown, replySchema: z.ZodType<T>, what: string, limit: number): T {
  const parsed = AnthropicMessage.safeParse(raw);
  if (!parsed.success) throw envelopeError("Anthropic", "no content in the reply", ANTHROPIC_URL_SETTING);
  const message = parsed.data;
  if (message.stop_reason === "refusal") throw refusal();
  const tool = message.content.find((block) => block.type === "tool_use");
  const reply = tool ? tool.input : message.content.filter((b) => b.type === "text").map((b) => b.text ?? "").join("");
  try {
    return parseReply(reply, replySchema, "Anthropic", what);
  } catch (error) {
    // Cut off at the limit: only an object that closed before it was used (above).
    if (message.stop_reason === "max_tokens" && SynapseError.isInstance(error)) throw truncatedError("Anthropic", what, limit, error);
    throw error;
  }
}
