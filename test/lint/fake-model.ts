/** A chat-only fake backend for lint's model checks: replies by a function of the prompt, counts calls, reports usage like a model. */
import { defineCapabilities, type ProviderCapabilities } from "../../src/core/capabilities";
import type { InferenceProvider } from "../../src/core/provider";
import type { RunContext } from "../../src/core/run-context";
import type { Message } from "../../src/core/schemas";

export type Reply = (messages: Message[], call: number) => string;

/** A chat-only fake backend: replies by a function of the prompt, counts calls, reports usage like a model. */
export class FakeModel implements InferenceProvider {
  readonly calls: Message[][] = [];
  private readonly caps: ProviderCapabilities;
  constructor(
    private readonly reply: Reply,
    caps: Partial<ProviderCapabilities> = {},
    /** The tokens each call reports, as a model's usage would. */
    private readonly spent: { readonly inputTokens: number; readonly outputTokens: number } = { inputTokens: 100, outputTokens: 20 },
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
    const text = this.reply(messages, this.calls.length);
    run.usage.record({ provider: "fake", model: this.caps.model, operation: "chat", ...this.spent });
    await Promise.resolve();
    yield text.slice(0, 5);
    yield text.slice(5);
  }
}

