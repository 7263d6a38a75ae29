/**
 * One pass of one note's ingest in a batch: the ordinary ingest runs with the real provider adapter
 * over a transport that answers each model request from the note's batch results. The first
 * request without a result is kept for the next round (its body exactly as the adapter built it)
 * and the pass is stopped there, before anything is planned or written. A pass that needs nothing
 * new is the note's ingest itself, applied through the one write path.
 *
 * Requests are matched by which call they are: the operation and its order (`analyze:0`,
 * `generate:1`: each follows from the results before it), and a same-subject question by its
 * content (`ask:<hash>`), so a vault that changed between rounds never hands one pair's verdict to
 * another.
 */
import type { InferenceProvider, StructuredAsk } from "../core/provider";
import type { RunContext } from "../core/run-context";
import type { FetchLike } from "../providers/environment";
import { batchBody, isModelCall, replyResponse } from "./replies";
import type { BatchCall, BatchNote, BatchProvider } from "./record";
import { TaggedUsage } from "./tagged-usage";

type Operation = "analyze" | "generate" | "ask";

export interface NotePassOptions {
  readonly provider: BatchProvider;
  /** The round the requests kept by this pass go into. */
  readonly round: number;
  /** The note's index in the record, for custom ids. */
  readonly noteIndex: number;
  /**
   * Interactive retry: a request without a usable result is sent to the provider now (at the
   * interactive price) instead of waiting for a round. `replay` says which results are reused.
   */
  readonly live?: { readonly replay: (call: BatchCall) => boolean };
}

/** A request kept for the next round. */
export interface HeldRequest {
  readonly customId: string;
  readonly body: Record<string, unknown>;
}

/** A refusal the adapter does not retry (a 400 in the protocol's error shape); the run is stopped before it writes. */
function heldResponse(provider: BatchProvider): Response {
  const message = "Synapse holds this request for the next batch round.";
  const body = provider === "anthropic" ? { type: "error", error: { type: "invalid_request_error", message } } : { error: { message, type: "invalid_request_error" } };
  return new Response(JSON.stringify(body), { status: 400, headers: { "content-type": "application/json" } });
}

function urlOf(input: string | URL | Request): URL {
  return new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
}

async function digest(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...bytes.slice(0, 12)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export class NotePass {
  /** Requests this pass kept for the next round (at most one per model call it reached). */
  readonly held: HeldRequest[] = [];
  private readonly stop = new AbortController();
  private operation: Operation | null = null;
  private readonly ordinals = new Map<Operation, number>();
  private lastFromBatch = false;

  constructor(
    private readonly note: BatchNote,
    private readonly options: NotePassOptions,
  ) {}

  /** Aborted when the pass holds a request: the ingest stops before it plans or writes. */
  get signal(): AbortSignal {
    return this.stop.signal;
  }

  /** The pass stopped at a request that now waits for the next round. */
  get deferred(): boolean {
    return this.held.length > 0;
  }

  /** The transport to build the provider with: model calls answered here, anything else sent on. */
  transport(real: FetchLike): FetchLike {
    return async (input, init) => {
      const url = urlOf(input);
      const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
      if (!isModelCall(this.options.provider, method, url) || typeof init?.body !== "string") return real(input, init);
      const body = JSON.parse(init.body) as Record<string, unknown>;
      const key = await this.keyOf(body);
      const call = this.note.calls.find((c) => c.key === key);
      const live = this.options.live;
      if (call?.status === "succeeded" && (!live || live.replay(call))) {
        this.lastFromBatch = true;
        return replyResponse(this.options.provider, call.reply, body.stream === true);
      }
      if (live) {
        this.lastFromBatch = false;
        return real(input, init);
      }
      this.hold(key, call, body);
      // A same-subject question fails for now (the planning goes on, so every question of the note
      // goes into the same round) and the run stops before it writes (`beforeWrite`). Any other
      // call stops the run at once, as a cancelled run stops, writing nothing.
      if (this.operation === "ask") return heldResponse(this.options.provider);
      this.stop.abort();
      throw new DOMException("Held for the next batch round.", "AbortError");
    };
  }

  /** Asked by the review, before anything is written: false (and the run stopped) when requests were held. */
  beforeWrite(): boolean {
    if (!this.deferred) return true;
    this.stop.abort();
    return false;
  }

  /** The provider for the pass's ingest: the adapter over `transport`, with its calls named and their usage marked. */
  provider(inner: InferenceProvider): InferenceProvider {
    const during = async <T>(operation: Operation, run: RunContext, call: (run: RunContext) => Promise<T>): Promise<T> => {
      this.operation = operation;
      try {
        return await call({ ...run, usage: new TaggedUsage(run.usage, () => this.lastFromBatch) });
      } finally {
        this.operation = null;
      }
    };
    const ask = inner.ask?.bind(inner);
    return {
      capabilities: () => inner.capabilities(),
      analyze: (text, context, run) => during("analyze", run, (r) => inner.analyze(text, context, r)),
      generate: (input, run) => during("generate", run, (r) => inner.generate(input, r)),
      chat: (messages, context, run) => inner.chat(messages, context, run),
      ...(ask ? { ask: <T,>(request: StructuredAsk<T>, run: RunContext) => during("ask", run, (r) => ask(request, r)) } : {}),
    };
  }

  private async keyOf(body: Record<string, unknown>): Promise<string> {
    const operation = this.operation ?? "generate";
    if (operation === "ask") return `ask:${await digest(JSON.stringify({ system: body.system ?? null, messages: body.messages ?? null }))}`;
    const ordinal = this.ordinals.get(operation) ?? 0;
    this.ordinals.set(operation, ordinal + 1);
    return `${operation}:${ordinal}`;
  }

  private hold(key: string, existing: BatchCall | undefined, body: Record<string, unknown>): void {
    const customId = `n${this.options.noteIndex}-c${existing ? this.note.calls.indexOf(existing) : this.note.calls.length}-r${this.options.round}`;
    const call: BatchCall = { key, customId, round: this.options.round, status: "pending", reply: null, error: null };
    if (existing) this.note.calls[this.note.calls.indexOf(existing)] = call;
    else this.note.calls.push(call);
    this.held.push({ customId, body: batchBody(body) });
  }
}
