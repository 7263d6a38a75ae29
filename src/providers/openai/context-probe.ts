/**
 * Local OpenAI-compatible servers run one context window, fixed when they start or load the model,
 * and do not put it in the chat protocol; each says it somewhere of its own: llama-server in
 * `GET /props`, LM Studio in `GET /api/v0/models`, vLLM as `max_model_len` in `GET /v1/models`.
 * Ollama's `/v1` runs requests in its default window (4,096 tokens unless OLLAMA_CONTEXT_LENGTH
 * says otherwise), whatever the model could hold; `/api/show` tells us it is Ollama and the model's
 * own limit. Every probe is best effort and short: one that fails says nothing, never fails a call.
 */
import * as z from "zod";
import type { FetchLike } from "../environment";
import { OllamaShowReply, contextLengthOf } from "../ollama/envelope";

export type WindowSource = "llama-server" | "LM Studio" | "vLLM" | "Ollama";

export interface ReportedWindow {
  readonly tokens: number;
  readonly source: WindowSource;
  /**
   * Set when the server's window is only its default and the user may have changed it out of our
   * sight (Ollama's OLLAMA_CONTEXT_LENGTH): the most the setting may raise it to (the model's own
   * limit; 0 when not known). Absent, the reported window is a hard limit.
   */
  readonly settableUpTo?: number;
  /** Ollama: /api/show lists "thinking" for the model (only such a model is sent a reasoning switch there). */
  readonly thinks?: boolean;
}

/** What Ollama's /v1 runs a request in when nothing sets OLLAMA_CONTEXT_LENGTH. */
export const OLLAMA_V1_DEFAULT_WINDOW = 4096;

const Tokens = z.number().int().positive();

/** llama-server: `default_generation_settings.n_ctx` (per slot), `n_ctx` at the top in newer builds. */
const LlamaProps = z.looseObject({
  n_ctx: Tokens.nullish(),
  default_generation_settings: z.looseObject({ n_ctx: Tokens.nullish() }).nullish(),
});

const LmStudioModels = z.looseObject({
  data: z.array(z.looseObject({ id: z.string(), max_context_length: Tokens.nullish(), loaded_context_length: Tokens.nullish() })),
});

const VllmModels = z.looseObject({
  data: z.array(z.looseObject({ id: z.string(), max_model_len: Tokens.nullish() })),
});

export interface ProbeInput {
  readonly fetch: FetchLike;
  /** The configured base URL (…/v1). */
  readonly baseUrl: URL;
  readonly model: string;
  readonly apiKey: string | null;
  readonly timeoutMs: number;
}

/** The server's root: the base URL without its trailing `/v1`. */
export function serverRoot(baseUrl: URL): string {
  return baseUrl.href.replace(/\/+$/, "").replace(/\/v1$/, "");
}

/** The JSON at `url`, or null for any failure; raced against the timeout too, as a transport may ignore the abort. */
async function getJson(input: ProbeInput, url: string, init: RequestInit = {}): Promise<unknown> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<null>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve(null);
    }, input.timeoutMs);
  });
  const read = async (): Promise<unknown> => {
    const headers: Record<string, string> = { accept: "application/json", ...(init.body ? { "content-type": "application/json" } : {}) };
    if (input.apiKey) headers.authorization = `Bearer ${input.apiKey}`;
    const response = await input.fetch(url, { ...init, headers, signal: controller.signal });
    return response.ok ? ((await response.json()) as unknown) : null;
  };
  try {
    return await Promise.race([read().catch(() => null), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Model ids as servers list them: `publisher/name`, a quantisation suffix, a `:tag`. */
function sameModel(listed: string, wanted: string): boolean {
  return listed === wanted || listed.endsWith(`/${wanted}`) || wanted.endsWith(`/${listed}`);
}

async function llamaServer(input: ProbeInput): Promise<ReportedWindow | null> {
  const parsed = LlamaProps.safeParse(await getJson(input, `${serverRoot(input.baseUrl)}/props`));
  if (!parsed.success) return null;
  const tokens = parsed.data.default_generation_settings?.n_ctx ?? parsed.data.n_ctx;
  return tokens ? { tokens, source: "llama-server" } : null;
}

async function lmStudio(input: ProbeInput): Promise<ReportedWindow | null> {
  const parsed = LmStudioModels.safeParse(await getJson(input, `${serverRoot(input.baseUrl)}/api/v0/models`));
  if (!parsed.success) return null;
  const entry = parsed.data.data.find((m) => sameModel(m.id, input.model));
  // A loaded model runs in the window it was loaded with. For one not loaded yet only the model's
  // maximum is known; LM Studio may load it with less, and then its refusal says so.
  const tokens = entry?.loaded_context_length ?? entry?.max_context_length;
  return tokens ? { tokens, source: "LM Studio" } : null;
}

async function vllm(input: ProbeInput): Promise<ReportedWindow | null> {
  const parsed = VllmModels.safeParse(await getJson(input, `${input.baseUrl.href.replace(/\/+$/, "")}/models`));
  if (!parsed.success) return null;
  const tokens = parsed.data.data.find((m) => sameModel(m.id, input.model))?.max_model_len;
  return tokens ? { tokens, source: "vLLM" } : null;
}

async function ollama(input: ProbeInput): Promise<ReportedWindow | null> {
  const raw = await getJson(input, `${serverRoot(input.baseUrl)}/api/show`, { method: "POST", body: JSON.stringify({ model: input.model }) });
  const parsed = OllamaShowReply.safeParse(raw);
  if (raw === null || !parsed.success || !parsed.data.model_info) return null;
  const own = contextLengthOf(parsed.data);
  const thinks = parsed.data.capabilities?.includes("thinking") ?? false;
  return { tokens: own > 0 ? Math.min(own, OLLAMA_V1_DEFAULT_WINDOW) : OLLAMA_V1_DEFAULT_WINDOW, source: "Ollama", settableUpTo: own, thinks };
}

/** The window the server reports for the model, or null when none of them says (all asked at once). */
export async function probeContextWindow(input: ProbeInput): Promise<ReportedWindow | null> {
  const answers = await Promise.all([llamaServer(input), lmStudio(input), vllm(input), ollama(input)]);
  return answers.find((a) => a !== null) ?? null;
}
