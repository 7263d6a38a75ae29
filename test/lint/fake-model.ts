/** A chat-only fake backend for lint's model checks: replies by a function of the prompt, counts calls, reports usage like a model. */
import { defineCapabilities, type ProviderCapabilities } from "../../src/core/capabilities";
import type { InferenceProvider } from "../../src/core/provider";
import type { RunContext } from "../../src/core/run-context";
import type { Message } from "../../src/core/schemas";

export type Reply = (messages: Message[], call: number) => string;
export interface Spent {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** A chat-only fake backend: replies by a function of the prompt, counts calls, reports usage like a model. */
export class FakeModel implements InferenceProvider {
  readonly calls: Message[][] = [];
  /** The output cap each call's run carried (`RunContext.maxOutputTokens`). */
  readonly outputCaps: (number | undefined)[] = [];
  private readonly caps: ProviderCapabilities;
  constructor(
    private readonly reply: Reply,
    caps: Partial<ProviderCapabilities> = {},
    /** The tokens each call reports, as a model's usage would (or a function of the prompt and the run; null reports none). */
    private readonly spent: Spent | ((messages: Message[], run: RunContext) => Spent | null) = { inputTokens: 100, outputTokens: 20 },
  ) {
    this.caps = defineCapabilities({ name: "fake", mode: "local", isLocal: true, model: "fake-1", ...caps });
  }
  capabilities(): ProviderCapabilities {
    return this.caps;
  }
  analyze(): never {
    throw new Error("not used");
  }
  generate(): never {
    throw new Error("not used");
  }
  async *chat(messages: Message[], _context: string, run: RunContext): AsyncIterable<string> {
    this.calls.push(messages);
    this.outputCaps.push(run.maxOutputTokens);
    const text = this.reply(messages, this.calls.length);
    const spent = typeof this.spent === "function" ? this.spent(messages, run) : this.spent;
    // null: the backend never reported usage for this request (a stream cut before its last event).
    if (spent) run.usage.record({ provider: "fake", model: this.caps.model, operation: "chat", ...spent });
    await Promise.resolve();
    yield text.slice(0, 5);
    yield text.slice(5);
  }
}

