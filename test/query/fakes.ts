/** Test stand-ins for the query's two ports: a chat provider that replies from a script, and a fixed retriever. */
import { defineCapabilities, type ProviderCapabilities } from "../../src/core/capabilities";
import type { InferenceProvider } from "../../src/core/provider";
import type { RunContext } from "../../src/core/run-context";
import type { Message } from "../../src/core/schemas";
import type { RetrievalHit, Retriever, RetrieveOptions } from "../../src/retrieval/types";

export class ChatProvider implements InferenceProvider {
  readonly calls: { messages: Message[]; context: string }[] = [];
  private readonly caps: ProviderCapabilities;

  constructor(
    private readonly reply: readonly string[] | ((context: string) => readonly string[]),
    capabilities: Partial<ProviderCapabilities> = {},
    private readonly beforeEachPiece?: (index: number) => void,
  ) {
    this.caps = defineCapabilities({ name: "chat-fake", mode: "local", isLocal: true, streaming: true, maxContext: 8192, ...capabilities });
  }

  capabilities(): ProviderCapabilities {
    return this.caps;
  }

  analyze(): never {
    throw new Error("not used by query");
  }

  generate(): never {
    throw new Error("not used by query");
  }

  async *chat(messages: Message[], context: string, run: RunContext): AsyncIterable<string> {
    this.calls.push({ messages: structuredClone(messages), context });
    const pieces = typeof this.reply === "function" ? this.reply(context) : this.reply;
    for (const [i, piece] of pieces.entries()) {
      this.beforeEachPiece?.(i);
      await Promise.resolve();
      if (run.signal.aborted) return;
      yield piece;
    }
    run.usage.record({ provider: "chat-fake", model: null, operation: "chat", inputTokens: 100, outputTokens: 20 });
  }
}

export const hit = (path: string, text: string, heading = ""): RetrievalHit => ({ path, heading, score: 1, snippet: text.slice(0, 40), text });

/** Returns its hits filtered by scope, like an index would. */
export class FixedRetriever implements Retriever {
  readonly calls: RetrieveOptions[] = [];
  constructor(
    private readonly hits: readonly RetrievalHit[],
    private readonly wikiFolder = "wiki",
  ) {}

  retrieve(_query: string, options: RetrieveOptions): Promise<readonly RetrievalHit[]> {
    this.calls.push(options);
    const inWiki = (p: string) => p.startsWith(`${this.wikiFolder}/`);
    const scope = options.scope;
    const kept = this.hits.filter((h) =>
      scope.kind === "wiki" ? inWiki(h.path) : scope.kind === "notes" ? !inWiki(h.path) : scope.kind === "all" ? true : scope.folders.some((f) => h.path.startsWith(`${f}/`)),
    );
    return Promise.resolve(kept.slice(0, options.limit));
  }
}
