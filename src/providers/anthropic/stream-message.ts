/**
 * A structured request streamed (`stream: true` beside the forced tool or `output_config`), read
 * back into one message, as Anthropic documents its server-sent events: `message_start` (the
 * input usage, cache reads and writes included), `content_block_start` (a text or a `tool_use`
 * block), `content_block_delta` (`text_delta`, or `input_json_delta` with a piece of the tool's
 * input as JSON text), `message_delta` (the stop reason and the output count so far),
 * `message_stop`. The SDK drops `ping` itself and throws on an `error` event (an overloaded API
 * mid-reply), which the adapter maps like any SDK error.
 *
 * Streaming is what times a reply by silence rather than by its length (attempt-timer.ts): a long
 * page reply takes longer than any whole-request limit, yet a delta arrives every fraction of a
 * second. A ping is not a token: a server that only pings has stopped writing.
 */
import type * as z from "zod";
import { SynapseError } from "../../core/errors";
import { envelopeError } from "../classify-error";
import { ANTHROPIC_URL_SETTING } from "../server-setting";
import { AnthropicStreamEvent, type AnthropicMessage, type AnthropicUsage } from "./envelope";

const LABEL = "Anthropic";

type Usage = z.infer<typeof AnthropicUsage>;

interface Block {
  readonly type: string;
  readonly name: string | null;
  text: string;
}

/** Each count as last reported: `message_delta` carries cumulative counts, `message_start` the input. */
function mergeUsage(into: Usage | null, next: Usage | null | undefined): Usage | null {
  if (!next) return into;
  const pick = (key: "input_tokens" | "output_tokens" | "cache_creation_input_tokens" | "cache_read_input_tokens") => next[key] ?? into?.[key] ?? null;
  return {
    input_tokens: pick("input_tokens"),
    output_tokens: pick("output_tokens"),
    cache_creation_input_tokens: pick("cache_creation_input_tokens"),
    cache_read_input_tokens: pick("cache_read_input_tokens"),
  };
}

/** A tool's streamed input: the JSON it spells, or the text itself when it does not close (cut at max_tokens). */
function toolInput(json: string): unknown {
  if (!json.trim()) return {};
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}

/**
 * The whole message from its events: text blocks joined, a tool's input assembled from its JSON
 * pieces, the stop reason and the usage kept. `received` hears every piece (thinking included),
 * so the silence timer sees the model working.
 */
export async function streamedMessage(events: AsyncIterable<unknown>, received: (piece: string) => void): Promise<AnthropicMessage> {
  const blocks: Block[] = [];
  let usage: Usage | null = null;
  let stopReason: string | null = null;
  let count = 0;
  for await (const raw of events) {
    count++;
    const parsed = AnthropicStreamEvent.safeParse(raw);
    if (!parsed.success) throw envelopeError(LABEL, "a stream event without a type", ANTHROPIC_URL_SETTING);
    const event = parsed.data;
    const index = event.index ?? 0;
    switch (event.type) {
      case "message_start":
        usage = mergeUsage(usage, event.message?.usage);
        break;
      case "content_block_start":
        blocks[index] = { type: event.content_block?.type ?? "text", name: event.content_block?.name ?? null, text: event.content_block?.text ?? "" };
        break;
      case "content_block_delta": {
        const piece = event.delta?.text ?? event.delta?.partial_json ?? "";
        const block = blocks[index] ?? (blocks[index] = { type: event.delta?.type === "input_json_delta" ? "tool_use" : "text", name: null, text: "" });
        block.text += piece;
        received(piece || event.delta?.thinking || "");
        break;
      }
      case "message_delta":
        stopReason = event.delta?.stop_reason ?? stopReason;
        usage = mergeUsage(usage, event.usage);
        break;
      case "message_stop":
        return {
          content: blocks
            .filter((b) => b.type === "text" || b.type === "tool_use")
            .map((b) => (b.type === "tool_use" ? { type: "tool_use", name: b.name, input: toolInput(b.text) } : { type: "text", text: b.text })),
          stop_reason: stopReason,
          usage,
        };
      default:
        // content_block_stop, and event types added later: nothing to keep.
        break;
    }
  }
  // A body that is not a stream of events at all (a proxy's page, another API's JSON) is not a cut stream.
  if (count === 0) throw envelopeError(LABEL, "no stream events in the reply", ANTHROPIC_URL_SETTING);
  throw new SynapseError("transport", "The Anthropic stream ended before the reply was complete; try again.");
}
