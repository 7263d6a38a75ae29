/**
 * The Anthropic Message Batches API (`client.messages.batches`): create with `{custom_id, params}`
 * per request, `processing_status` in_progress → canceling → ended, results as JSON lines of
 * `{custom_id, result: {type: succeeded | errored | canceled | expired}}`.
 */
import type { MessageCreateParamsNonStreaming } from "@anthropic-ai/sdk/resources/messages/messages";
import * as z from "zod";
import type { SynapseError } from "../core/errors";
import type { AnthropicMessagesClient } from "../providers/anthropic/sdk-client";
import type { BatchApi, BatchRequest, ItemResult, RemoteStatus } from "./batch-api";

export type AnthropicBatchClient = Pick<AnthropicMessagesClient, "messages">;

const Counts = z.looseObject({
  processing: z.number().nonnegative(),
  succeeded: z.number().nonnegative(),
  errored: z.number().nonnegative(),
  canceled: z.number().nonnegative(),
  expired: z.number().nonnegative(),
});

const MessageBatch = z.looseObject({ id: z.string().min(1), processing_status: z.string(), request_counts: Counts });

const ResultLine = z.looseObject({
  custom_id: z.string(),
  result: z.looseObject({
    type: z.string(),
    message: z.unknown().optional(),
    error: z.looseObject({ error: z.looseObject({ type: z.string().nullish(), message: z.string().nullish() }).nullish() }).nullish(),
  }),
});

function itemResult(result: z.infer<typeof ResultLine>["result"]): ItemResult {
  switch (result.type) {
    case "succeeded":
      return { type: "succeeded", reply: result.message ?? null };
    case "expired":
      return { type: "expired" };
    case "canceled":
      return { type: "canceled" };
    default: {
      const inner = result.error?.error;
      return { type: "errored", message: `Anthropic refused the request (${inner?.type ?? "error"}): ${inner?.message ?? "no reason given"}` };
    }
  }
}

export function anthropicBatches(client: () => Promise<AnthropicBatchClient>, mapError: (error: unknown) => SynapseError): BatchApi {
  const guarded = async <T>(call: (c: AnthropicBatchClient) => Promise<T>): Promise<T> => {
    try {
      return await call(await client());
    } catch (error) {
      throw mapError(error);
    }
  };
  const retrieve = (id: string) => guarded(async (c) => MessageBatch.parse(await c.messages.batches.retrieve(id)));
  return {
    submit: (requests: readonly BatchRequest[]) =>
      guarded(async (c) => {
        const created = await c.messages.batches.create({
          requests: requests.map((r) => ({ custom_id: r.customId, params: r.body as unknown as MessageCreateParamsNonStreaming })),
        });
        return MessageBatch.parse(created).id;
      }),
    status: async (id): Promise<RemoteStatus> => {
      const batch = await retrieve(id);
      const counts = batch.request_counts;
      const done = counts.succeeded + counts.errored + counts.canceled + counts.expired;
      return { status: batch.processing_status, ended: batch.processing_status === "ended", done, total: done + counts.processing };
    },
    results: (id) =>
      guarded(async (c) => {
        const out = new Map<string, ItemResult>();
        for await (const raw of await c.messages.batches.results(id)) {
          const line = ResultLine.safeParse(raw);
          if (line.success) out.set(line.data.custom_id, itemResult(line.data.result));
        }
        return out;
      }),
    cancel: (id) =>
      guarded(async (c) => {
        await c.messages.batches.cancel(id);
      }),
  };
}
