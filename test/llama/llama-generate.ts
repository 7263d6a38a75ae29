/**
 * One generation on the real runtime, as a server runs it: the chat rendered with the model's
 * ChatML template, tokenized by the model, held to a grammar compiled from the request's JSON
 * schema, bounded by a token budget, streamed chunk by chunk, and stopped by an abort signal.
 */
import { LlamaCompletion, TokenBias, type Llama, type LlamaContext, type LlamaGrammar, type LlamaModel, type Token } from "node-llama-cpp";

export interface ChatMessage {
  readonly role: string;
  readonly content: string;
}

export interface Generation {
  readonly promptTokens: number;
  readonly outputTokens: number;
  /** "stop" (the model or the grammar ended it), "length" (the budget), "abort" (the client went away). */
  readonly stop: "stop" | "length" | "abort";
  readonly text: string;
}

/** The ChatML text of a conversation, as the model's `tokenizer.chat_template` renders it. */
export function renderChat(messages: readonly ChatMessage[]): string {
  return `${messages.map((m) => `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`).join("")}<|im_start|>assistant\n`;
}

/** Owns one context at a time, sized to the request's window, and the grammars compiled so far. */
export class LlamaEngine {
  private context: LlamaContext | null = null;
  private readonly grammars = new Map<string, Promise<LlamaGrammar>>();

  constructor(
    readonly llama: Llama,
    readonly model: LlamaModel,
    private readonly seed: number,
  ) {}

  tokenize(messages: readonly ChatMessage[]): Token[] {
    return this.model.tokenize(renderChat(messages), true);
  }

  /** The grammar for a JSON schema (or Ollama's `"json"`); a schema that does not compile rejects. */
  grammarFor(format: unknown): Promise<LlamaGrammar> | null {
    if (format === undefined || format === null || format === "") return null;
    const key = JSON.stringify(format);
    let grammar = this.grammars.get(key);
    if (!grammar) {
      grammar = format === "json" ? this.llama.getGrammarFor("json") : this.llama.createGrammarForJsonSchema(format as never);
      this.grammars.set(key, grammar);
    }
    return grammar;
  }

  private async contextOf(size: number): Promise<LlamaContext> {
    if (this.context?.contextSize === size) return this.context;
    await this.context?.dispose();
    this.context = await this.model.createContext({ contextSize: size, sequences: 1, threads: 1 });
    return this.context;
  }

  async generate(
    prompt: readonly Token[],
    options: { window: number; maxTokens: number; grammar: LlamaGrammar | null; neverEnd?: boolean; temperature?: number; signal: AbortSignal; onText: (text: string) => void },
  ): Promise<Generation> {
    const context = await this.contextOf(options.window);
    const sequence = context.getSequence();
    const completion = new LlamaCompletion({ contextSequence: sequence });
    let outputTokens = 0;
    // No end-of-generation token, so only the budget or an abort ends the reply.
    const noEnd = options.neverEnd ? new TokenBias(this.model.tokenizer) : null;
    if (noEnd) for (const token of [this.model.tokens.eos, this.model.tokens.eot]) if (token !== null) noEnd.set(token, "never");
    try {
      const result = await completion.generateCompletionWithMeta([...prompt], {
        ...(options.grammar ? { grammar: options.grammar } : {}),
        ...(noEnd ? { tokenBias: noEnd } : {}),
        maxTokens: options.maxTokens,
        temperature: options.temperature ?? 0.8,
        seed: this.seed,
        signal: options.signal,
        stopOnAbortSignal: true,
        onTextChunk: options.onText,
        onToken: (tokens) => (outputTokens += tokens.length),
      });
      const reason = result.metadata.stopReason;
      return { promptTokens: prompt.length, outputTokens, stop: reason === "maxTokens" ? "length" : reason === "abort" ? "abort" : "stop", text: result.response };
    } finally {
      completion.dispose({ disposeSequence: true });
    }
  }

  async dispose(): Promise<void> {
    await this.context?.dispose();
    this.context = null;
  }
}
