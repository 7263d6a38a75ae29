/**
 * How the Ollama adapter gets its client. ollama-js 0.6.4 passes no abort signal on non-streaming
 * requests and keeps no response headers on errors, so the factory hands the adapter a function
 * that builds a client per request over a fetch bound to that request's signal, which also lets
 * the adapter see the status and retry-after of the last response.
 */
import type { Ollama } from "ollama/browser";
import type { FetchLike } from "../environment";

/** The slice of the ollama-js client the adapter uses. */
export type OllamaApi = Pick<Ollama, "chat" | "show" | "list" | "version" | "embed">;

export interface RequestBinding {
  readonly signal: AbortSignal;
  /** Called with every HTTP response before the client reads it. */
  readonly observe?: (response: Response) => void;
  /** Streaming requests use the streaming transport. */
  readonly streaming?: boolean;
}

/** Builds a client for one request; the first call loads ollama-js. */
export type OllamaConnect = (binding: RequestBinding) => Promise<OllamaApi>;

/** A fetch that always carries `signal` (merged with any the client passes) and reports responses. */
export function bindFetch(fetchImpl: FetchLike, binding: RequestBinding): FetchLike {
  return async (input, init) => {
    const signal = init?.signal ? AbortSignal.any([init.signal, binding.signal]) : binding.signal;
    const response = await fetchImpl(input, { ...init, signal });
    binding.observe?.(response);
    return response;
  };
}
