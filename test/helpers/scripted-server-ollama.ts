/** The Ollama wire protocol for the scripted server: /api/chat (JSON or NDJSON), /api/version, /api/tags, /api/show, /api/embed. */
import type { ServerResponse } from "node:http";
import {
  chunksOf,
  cutJson,
  defaultMessage,
  jsonResponse,
  usageOf,
  writeCut,
  type RecordedRequest,
  type RenderContext,
  type Renderer,
  type Reply,
} from "./scripted-server";

function modelOf(request: RecordedRequest): string {
  const body = request.body as { model?: unknown } | null;
  return typeof body?.model === "string" ? body.model : "";
}

function isStream(request: RecordedRequest): boolean {
  return (request.body as { stream?: unknown } | null)?.stream === true;
}

function line(model: string, content: string, done: boolean, extra: Record<string, unknown> = {}): string {
  return `${JSON.stringify({ model, created_at: new Date(0).toISOString(), message: { role: "assistant", content }, done, ...extra })}\n`;
}

function known(ctx: RenderContext, name: string): boolean {
  const norm = (n: string) => (n.includes(":") ? n : `${n}:latest`);
  return ctx.models.some((m) => norm(m.name) === norm(name));
}

export const renderOllama: Renderer = {
  isModelCall: (method, path) => method === "POST" && path === "/api/chat",

  error(status, message, res, headers = {}) {
    jsonResponse(res, status, { error: message }, headers);
  },

  model(reply: Reply, request: RecordedRequest, res: ServerResponse, ctx: RenderContext): void {
    const model = modelOf(request);
    const stream = isStream(request);
    switch (reply.kind) {
      case "status":
        return this.error(reply.status, reply.message ?? (reply.status === 404 ? `model '${model}' not found, try pulling it first` : defaultMessage(reply.status)), res, reply.headers);
      case "slow":
        return ctx.later(reply.delayMs, () => this.model(reply.then ?? { kind: "content", text: "{}" }, request, res, ctx));
      case "raw":
        res.writeHead(reply.status ?? 200, { "content-type": reply.contentType ?? "application/json" });
        res.end(reply.body);
        return;
      case "refusal":
        // Ollama has no refusal signal; a model that declines just says so in prose.
        return this.model({ kind: "content", text: reply.text ?? "I'm sorry, but I can't help with that." }, request, res, ctx);
      case "content": {
        const usage = usageOf(reply);
        const final = { done_reason: reply.finish === "length" ? "length" : "stop", prompt_eval_count: usage.input, eval_count: usage.output };
        if (!stream) {
          jsonResponse(res, 200, { model, created_at: new Date(0).toISOString(), message: { role: "assistant", content: reply.text }, done: true, ...final });
          return;
        }
        res.writeHead(200, { "content-type": "application/x-ndjson" });
        for (const chunk of chunksOf(reply.text)) res.write(line(model, chunk, false));
        res.end(line(model, "", true, final));
        return;
      }
      case "cut": {
        if (!stream) {
          cutJson(res, { model, message: { role: "assistant", content: reply.text }, done: true }, reply.afterChars + 40);
          return;
        }
        res.writeHead(200, { "content-type": "application/x-ndjson" });
        for (const chunk of chunksOf(reply.text.slice(0, reply.afterChars))) res.write(line(model, chunk, false));
        writeCut(res, `{"model":"${model}","message":{"role":"assistant","content":"${reply.text.slice(reply.afterChars, reply.afterChars + 5)}`);
        return;
      }
      case "stall": {
        res.writeHead(200, { "content-type": "application/x-ndjson" });
        for (const chunk of chunksOf(reply.text)) res.write(line(model, chunk, false));
        return;
      }
      case "stream-error": {
        res.writeHead(200, { "content-type": "application/x-ndjson" });
        for (const chunk of chunksOf(reply.text)) res.write(line(model, chunk, false));
        res.end(`${JSON.stringify({ error: reply.message })}\n`);
        return;
      }
    }
  },

  isEmbedCall: (method, path) => method === "POST" && path === "/api/embed",

  embeddings(vectors, request, res, ctx) {
    const body = request.body as { model?: string; input?: string | string[] } | null;
    if (!known(ctx, body?.model ?? "")) return this.error(404, `model '${body?.model ?? ""}' not found, try pulling it first`, res);
    const inputs = Array.isArray(body?.input) ? body.input : [body?.input ?? ""];
    jsonResponse(res, 200, { model: body?.model, embeddings: vectors, prompt_eval_count: inputs.join(" ").split(/\s+/).length });
  },

  other(request, res, ctx) {
    const { method, path } = request;
    if (method === "GET" && path === "/api/version") return jsonResponse(res, 200, { version: ctx.version });
    if (method === "GET" && path === "/api/tags") {
      return jsonResponse(res, 200, {
        models: ctx.models.map((m) => ({ name: m.name, model: m.name, modified_at: new Date(0).toISOString(), size: 1, digest: "sha256:0", details: { family: "llama" } })),
      });
    }
    if (method === "POST" && path === "/api/show") {
      const name = modelOf(request);
      const found = ctx.models.find((m) => known({ ...ctx, models: [m] }, name));
      if (!found) return this.error(404, `model '${name}' not found`, res);
      return jsonResponse(res, 200, {
        capabilities: found.capabilities ?? ["completion"],
        model_info: { "general.architecture": "llama", "llama.context_length": found.contextLength ?? 8192 },
        details: { family: "llama", parameter_size: "8B" },
      });
    }
    // /api/pull and anything else: recorded, so a test can prove it never happened.
    return this.error(404, `no route ${method} ${path}`, res);
  },
};
