/**
 * What a batch ingest asks of a provider's batch API, whichever it is: submit a round's requests,
 * say where the batch stands, hand back each request's result, cancel. The two implementations
 * (anthropic-batches.ts, openai-batches.ts) map their provider's shapes and statuses onto this.
 */

/** One request of a round: its id in the batch and the body the interactive path built for it. */
export interface BatchRequest {
  readonly customId: string;
  readonly body: Readonly<Record<string, unknown>>;
}

/** A request's outcome, as both APIs report it. */
export type ItemResult =
  | { readonly type: "succeeded"; readonly reply: unknown }
  | { readonly type: "errored"; readonly message: string }
  | { readonly type: "expired" }
  | { readonly type: "canceled" };

export interface RemoteStatus {
  /** The provider's own word for where the batch is (`in_progress`, `ended`, `completed`, `expired`…). */
  readonly status: string;
  /** Every request has its outcome: results can be taken in. */
  readonly ended: boolean;
  /** Requests done so far (succeeded or not), and in all, as far as the provider says. */
  readonly done: number;
  readonly total: number;
}

export interface BatchApi {
  /** Sends the round; resolves with the provider's batch id. */
  submit(requests: readonly BatchRequest[]): Promise<string>;
  status(remoteId: string): Promise<RemoteStatus>;
  /** Each request's outcome by custom id; a request the provider does not mention is absent. */
  results(remoteId: string): Promise<ReadonlyMap<string, ItemResult>>;
  cancel(remoteId: string): Promise<void>;
}
