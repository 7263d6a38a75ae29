/**
 * The OpenAI Batch API: the round's requests as a JSONL file (`files.create`, purpose "batch") of
 * `{custom_id, method: "POST", url: "/v1/chat/completions", body}`, then `batches.create`; status
 * validating → in_progress → finalizing → completed (or failed, expired, cancelling → cancelled);
 * results in the output file and failures in the error file (`files.content`), one JSON line each.
 * An expired or cancelled batch still hands back what it finished.
 */
import type OpenAI from "openai";
import * as z from "zod";
import type { SynapseError } from "../core/errors";
import type { BatchApi, BatchRequest, ItemResult, RemoteStatus } from "./batch-api";

export type OpenAIBatchClient = Pick<OpenAI, "files" | "batches">;

const ENDPOINT = "/v1/chat/completions";

const Batch = z.looseObject({
  id: z.string().min(1),
  status: z.string(),
  output_file_id: z.string().nullish(),
  error_file_id: z.string().nullish(),
  request_counts: z.looseObject({ total: z.number().nonnegative(), completed: z.number().nonnegative(), failed: z.number().nonnegative() }).nullish(),
  errors: z.looseObject({ data: z.array(z.looseObject({ message: z.string().nullish() })).nullish() }).nullish(),
});

const OutputLine = z.looseObject({
  custom_id: z.string(),
  response: z.looseObject({ status_code: z.number(), body: z.unknown() }).nullish(),
  error: z.looseObject({ code: z.string().nullish(), message: z.string().nullish() }).nullish(),
});

const ENDED = new Set(["completed", "expired", "cancelled", "failed"]);

function bodyMessage(body: unknown): string {
  const parsed = z.looseObject({ error: z.looseObject({ message: z.string().nullish() }).nullish() }).safeParse(body);
  return (parsed.success && parsed.data.error?.message) || "no reason given";
}

function itemResult(line: z.infer<typeof OutputLine>, batchStatus: string): ItemResult {
  const code = line.error?.code ?? "";
  if (code === "batch_expired") return { type: "expired" };
  if (code === "batch_cancelled") return { type: "canceled" };
  if (line.error) return { type: "errored", message: `The OpenAI batch refused the request (${code || "error"}): ${line.error.message ?? "no reason given"}` };
  const response = line.response;
  if (!response) return batchStatus === "expired" ? { type: "expired" } : { type: "errored", message: "The OpenAI batch returned no response for the request." };
  if (response.status_code !== 200) return { type: "errored", message: `The OpenAI batch answered the request with HTTP ${response.status_code}: ${bodyMessage(response.body)}` };
  return { type: "succeeded", reply: response.body };
}

function jsonLines(text: string): unknown[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as unknown];
      } catch {
        return [];
      }
    });
}

export function openaiBatches(client: () => Promise<OpenAIBatchClient>, mapError: (error: unknown) => SynapseError): BatchApi {
  const guarded = async <T>(call: (c: OpenAIBatchClient) => Promise<T>): Promise<T> => {
    try {
      return await call(await client());
    } catch (error) {
      throw mapError(error);
    }
  };
  const retrieve = (id: string) => guarded(async (c) => Batch.parse(await c.batches.retrieve(id)));
  const fileLines = (c: OpenAIBatchClient, fileId: string | null | undefined) => (fileId ? c.files.content(fileId).then(async (r) => jsonLines(await r.text())) : Promise.resolve([]));
  return {
    submit: (requests: readonly BatchRequest[]) =>
      guarded(async (c) => {
        const jsonl = requests.map((r) => JSON.stringify({ custom_id: r.customId, method: "POST", url: ENDPOINT, body: r.body })).join("\n");
        const file = await c.files.create({ file: new File([`${jsonl}\n`], "synapse-batch.jsonl", { type: "application/jsonl" }), purpose: "batch" });
        const batch = await c.batches.create({ input_file_id: file.id, endpoint: ENDPOINT, completion_window: "24h" });
        return Batch.parse(batch).id;
      }),
    status: async (id): Promise<RemoteStatus> => {
      const batch = await retrieve(id);
      const counts = batch.request_counts;
      return { status: batch.status, ended: ENDED.has(batch.status), done: (counts?.completed ?? 0) + (counts?.failed ?? 0), total: counts?.total ?? 0 };
    },
    results: (id) =>
      guarded(async (c) => {
        const batch = Batch.parse(await c.batches.retrieve(id));
        const out = new Map<string, ItemResult>();
        for (const raw of [...(await fileLines(c, batch.output_file_id)), ...(await fileLines(c, batch.error_file_id))]) {
          const line = OutputLine.safeParse(raw);
          if (line.success) out.set(line.data.custom_id, itemResult(line.data, batch.status));
        }
        // A batch that failed as a whole (its input refused) has no files: every request failed with its reason.
        if (batch.status === "failed" && out.size === 0) {
          const reason = batch.errors?.data?.map((e) => e.message).filter(Boolean).join("; ") || "no reason given";
          out.set("*", { type: "errored", message: `The OpenAI batch failed as a whole: ${reason}` });
        }
        return out;
      }),
    cancel: (id) =>
      guarded(async (c) => {
        await c.batches.cancel(id);
      }),
  };
}
