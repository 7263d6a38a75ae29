/**
 * A scripted Anthropic Messages API on 127.0.0.1 for driving the real Claude Agent SDK offline.
 *
 * It answers `POST /v1/messages` (the CLI sends `?beta=true`) as an SSE stream built from a script
 * of turns: each agent request takes the next turn; a turn is text, tool calls, or both. Side
 * requests the CLI makes on its own (count_tokens, anything non-streaming) get a harmless answer
 * and are recorded as `unknown` so a test can see them. Every request is recorded.
 */
import { Buffer } from "node:buffer";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type ScriptedBlock =
  /** `pieces`: the text sent as several deltas (their concatenation is `text`), so streaming shows. */
  | { readonly type: "text"; readonly text: string; readonly pieces?: readonly string[] }
  | { readonly type: "tool_use"; readonly name: string; readonly input: Record<string, unknown> };

export interface ScriptedTurn {
  readonly blocks: readonly ScriptedBlock[];
  /** Defaults to "tool_use" when the turn calls a tool, else "end_turn". */
  readonly stopReason?: "end_turn" | "tool_use" | "max_tokens";
  /** Wait this long before answering (for cancel tests). */
  readonly delayMs?: number;
  /** Never finish the stream (held open until the client goes away or the server closes). */
  readonly hang?: boolean;
  /** Send this many text deltas, then hold the stream open like `hang` (cancel mid-answer). */
  readonly hangAfterPieces?: number;
  readonly usage?: { readonly input_tokens: number; readonly output_tokens: number };
}

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: unknown;
  /** Which scripted turn answered it (index), or null for side requests. */
  readonly turn: number | null;
  readonly kind: "messages" | "count_tokens" | "unknown";
}

export interface ScriptedMessagesApi {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Requests answered by a scripted turn (the agent's own turns). */
  agentRequests(): RecordedRequest[];
  /** Resolves when a request for turn `index` arrives. */
  waitForTurn(index: number): Promise<void>;
  /** Streams held open by `hang` turns that the client has not closed yet. */
  openStreams(): number;
  close(): Promise<void>;
}

export function textTurn(text: string): ScriptedTurn {
  return { blocks: [{ type: "text", text }], stopReason: "end_turn" };
}

/** A final answer streamed in several deltas. */
export function piecesTurn(pieces: readonly string[], options: { hangAfterPieces?: number } = {}): ScriptedTurn {
  return { blocks: [{ type: "text", text: pieces.join(""), pieces }], stopReason: "end_turn", ...options };
}

export function toolTurn(name: string, input: Record<string, unknown>, text?: string): ScriptedTurn {
  const blocks: ScriptedBlock[] = text ? [{ type: "text", text }] : [];
  blocks.push({ type: "tool_use", name, input });
  return { blocks, stopReason: "tool_use" };
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function sse(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

let idCounter = 0;

/** Streams a turn; returns "held" when it stopped mid-answer (`hangAfterPieces`) and left the response open. */
function streamTurn(res: ServerResponse, turn: ScriptedTurn, model: string): "ended" | "held" {
  idCounter += 1;
  const usage = turn.usage ?? { input_tokens: 120, output_tokens: 40 };
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
    "request-id": `req_scripted_${idCounter}`,
  });
  sse(res, "message_start", {
    type: "message_start",
    message: {
      id: `msg_scripted_${idCounter}`,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: usage.input_tokens, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    },
  });
  let sent = 0;
  for (const [index, block] of turn.blocks.entries()) {
    if (block.type === "text") {
      sse(res, "content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } });
      for (const piece of block.pieces ?? [block.text]) {
        if (turn.hangAfterPieces !== undefined && sent >= turn.hangAfterPieces) return "held";
        sse(res, "content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: piece } });
        sent += 1;
      }
    } else {
      sse(res, "content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: `toolu_scripted_${idCounter}_${index}`, name: block.name, input: {} },
      });
      sse(res, "content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
      });
    }
    sse(res, "content_block_stop", { type: "content_block_stop", index });
  }
  const stop = turn.stopReason ?? (turn.blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn");
  sse(res, "message_delta", { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
  sse(res, "message_stop", { type: "message_stop" });
  res.end();
  return "ended";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/**
 * Starts the server. `script` is the agent's turns in order; once it runs out, every further agent
 * request is answered with a plain "done" so the CLI ends its loop instead of retrying.
 */
export async function startScriptedMessagesApi(script: readonly ScriptedTurn[]): Promise<ScriptedMessagesApi> {
  const requests: RecordedRequest[] = [];
  const open = new Set<ServerResponse>();
  const waiters = new Map<number, Array<() => void>>();
  let next = 0;

  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const url = req.url ?? "/";
      const base = { method: req.method ?? "GET", url, headers: req.headers, body };
      if (req.method === "POST" && url.startsWith("/v1/messages/count_tokens")) {
        requests.push({ ...base, turn: null, kind: "count_tokens" });
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ input_tokens: 100 }));
        return;
      }
      const streaming = isRecord(body) && body.stream === true;
      if (req.method === "POST" && url.startsWith("/v1/messages") && streaming) {
        // Only requests that offer tools are the agent's turns; others (titles, summaries) are side calls.
        const model = isRecord(body) && typeof body.model === "string" ? body.model : "claude-scripted";
        const agentTurn = isRecord(body) && Array.isArray(body.tools) && body.tools.length > 0;
        if (!agentTurn) {
          requests.push({ ...base, turn: null, kind: "unknown" });
          streamTurn(res, textTurn("ok"), model);
          return;
        }
        const index = next++;
        requests.push({ ...base, turn: index, kind: "messages" });
        for (const wake of waiters.get(index) ?? []) wake();
        waiters.delete(index);
        const turn = script[index] ?? textTurn("done");
        if (turn.hang) {
          open.add(res);
          res.writeHead(200, { "content-type": "text/event-stream" });
          res.write(": waiting\n\n");
          res.on("close", () => open.delete(res));
          return;
        }
        if (turn.delayMs) await new Promise((r) => setTimeout(r, turn.delayMs));
        if (!res.destroyed && streamTurn(res, turn, model) === "held") {
          open.add(res);
          res.on("close", () => open.delete(res));
        }
        return;
      }
      requests.push({ ...base, turn: null, kind: "unknown" });
      if (req.method === "POST" && url.startsWith("/v1/messages")) {
        // A non-streaming messages call: answer with a minimal, valid message.
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: "msg_side",
            type: "message",
            role: "assistant",
            model: "claude-scripted",
            content: [{ type: "text", text: "ok" }],
            stop_reason: "end_turn",
            stop_sequence: null,
            usage: { input_tokens: 1, output_tokens: 1 },
          }),
        );
        return;
      }
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: "scripted API: unknown route" } }));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    agentRequests: () => requests.filter((r) => r.turn !== null),
    waitForTurn: (index) =>
      index < next
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const list = waiters.get(index) ?? [];
            list.push(resolve);
            waiters.set(index, list);
          }),
    openStreams: () => open.size,
    close: async () => {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
