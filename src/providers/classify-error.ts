/**
 * Maps an HTTP failure to the failure taxonomy, with one sentence a user can act on. The three
 * adapters' own mappers extract status, server message and retry-after from their SDK's error
 * shape and hand them here, so every backend classifies the same status the same way.
 */
import { SynapseError, type ErrorKind } from "../core/errors";
import { redact } from "../core/log";
import type { ServerSetting } from "./server-setting";

export interface HttpFailure {
  /** Display name of the backend ("Ollama", "Anthropic", "OpenAI-compatible server"). */
  readonly provider: string;
  readonly model: string | null;
  readonly status: number;
  /** What the server said, if anything; redacted and shortened before it is shown. */
  readonly serverMessage?: string | null;
  readonly retryAfterMs?: number;
  readonly requestId?: string | null;
  /** Secrets to scrub from the server message (API keys). */
  readonly secrets?: readonly string[];
  readonly cause?: unknown;
}

/**
 * A prompt too long for the window the server runs: OpenAI and vLLM ("maximum context length is
 * 4096 tokens"), llama-server ("request (5000 tokens) exceeds the available context size (4096
 * tokens)", type `exceed_context_size_error`), LM Studio ("the model is loaded with context length
 * of only 4096 tokens, which is not enough", "Cannot truncate prompt with n_keep (5000) >= n_ctx
 * (4096)"), Anthropic ("prompt is too long").
 */
const CONTEXT_TOO_LONG = /context (?:length|window|size)|too many tokens|prompt is too long|maximum context|input.{0,20}too long|exceeds? (?:the )?(?:available |model'?s? )?(?:context|max)|exceed_context_size|context_length_exceeded|n_keep\W{0,4}\d*\W{0,4}>=\s*n_ctx/i;
const MODEL_MISSING = /model[^.]{0,80}(?:not found|does not exist|not exist|unknown|no such)|(?:unknown|invalid) model|not_found_error/i;

/** A short, redacted excerpt of what the server said. */
export function serverExcerpt(message: string | null | undefined, secrets: readonly string[] = []): string {
  if (!message) return "";
  const oneLine = message.replace(/\s+/g, " ").trim();
  return redact(oneLine, secrets, 200);
}

function said(failure: HttpFailure): string {
  const excerpt = serverExcerpt(failure.serverMessage, failure.secrets);
  return excerpt ? ` (the server said: ${excerpt})` : "";
}

function make(kind: ErrorKind, message: string, failure: HttpFailure, pluginMessage?: string): SynapseError {
  return new SynapseError(kind, message, {
    ...(pluginMessage !== undefined ? { pluginMessage } : {}),
    status: failure.status,
    ...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
    ...(failure.requestId ? { requestId: failure.requestId } : {}),
    ...(failure.cause !== undefined ? { cause: failure.cause } : {}),
  });
}

export function classifyHttpFailure(failure: HttpFailure): SynapseError {
  const { provider, status } = failure;
  const model = failure.model ?? "the configured model";
  const text = failure.serverMessage ?? "";
  if (status === 401) {
    return make("request", `${provider} rejected the API key (401); check the key in the settings or the environment variable.`, failure, `${provider} rejected the API key (401); check the secret chosen under "API key" in the settings.`);
  }
  if (status === 403) {
    return make("request", `${provider} refused access (403); check that the API key may use ${model}${said(failure)}.`, failure);
  }
  if (status === 404 || (status === 400 && MODEL_MISSING.test(text))) {
    return make(
      "request",
      `${provider} does not know the model "${model}" (${status}); pick a model the server lists (\`synapse models\`)${said(failure)}.`,
      failure,
      `${provider} does not know the model "${model}" (${status}); pick one the server lists under "Model" in the settings (Test connection shows them)${said(failure)}.`,
    );
  }
  if (status === 413 || ((status === 400 || status === 422) && CONTEXT_TOO_LONG.test(text))) {
    // Not retried: the same prompt would be refused again. The adapter adds which setting sizes the window.
    return make("context", `The request is too long for ${model}'s context window (${status}); ingest a shorter note or pick a model with a larger context${said(failure)}.`, failure);
  }
  if (status === 429) {
    const wait = failure.retryAfterMs !== undefined ? ` and asked to wait ${Math.ceil(failure.retryAfterMs / 1000)} s` : "";
    return make("rate_limit", `${provider} is rate-limiting requests (429)${wait}; try again later or lower the request rate.`, failure);
  }
  if (status === 529 || status === 503) {
    return make("rate_limit", `${provider} is overloaded (${status}); try again in a moment.`, failure);
  }
  if (status === 408 || status === 409 || status >= 500) {
    return make("transport", `${provider} failed with a server error (${status}); try again in a moment${said(failure)}.`, failure);
  }
  return make("request", `${provider} rejected the request (${status})${said(failure)}.`, failure);
}

/**
 * A reply whose shape is not the documented envelope: the server or a proxy is not speaking the
 * protocol. `setting` is where the address is set (Ollama's "Host", an API's "Base URL").
 */
export function envelopeError(provider: string, detail: string, setting: ServerSetting, cause?: unknown): SynapseError {
  const say = (where: string) => `${provider} sent a reply that is not the expected format (${detail}); check that ${where} points at the right kind of server.`;
  return new SynapseError("transport", say(setting.cli), { pluginMessage: say(setting.plugin), ...(cause !== undefined ? { cause } : {}) });
}

/** The connection failed before any HTTP status (refused, reset, DNS, cut stream). */
export function connectionError(provider: string, where: string, setting: ServerSetting, cause?: unknown): SynapseError {
  // Mid-sentence, "The OpenAI-compatible server" reads "the OpenAI-compatible server".
  const named = provider.replace(/^The /, "the ");
  const say = (name: string) => `Could not reach ${named} at ${where}; check that it is running and that ${name} is right.`;
  return new SynapseError("transport", say(setting.cli), { pluginMessage: say(setting.plugin), ...(cause !== undefined ? { cause } : {}) });
}
