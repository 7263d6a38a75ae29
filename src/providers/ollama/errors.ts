/**
 * ollama-js failures into the taxonomy. It throws `ResponseError` (with `status_code`) for HTTP
 * errors, a plain `Error` for an `{"error"}` line inside a stream or a stream that ends early,
 * `TypeError` when the connection fails, and `SyntaxError` when the body is not JSON.
 */
import { SynapseError } from "../../core/errors";
import { classifyHttpFailure, connectionError, envelopeError, serverExcerpt } from "../classify-error";
import { OLLAMA_HOST_SETTING } from "../server-setting";

export interface OllamaErrorContext {
  readonly host: string;
  readonly model: string;
  /** From the last response the bound fetch observed (ollama-js drops headers). */
  readonly retryAfterMs?: number;
}

function isResponseError(error: unknown): error is Error & { status_code: number; error: string } {
  return error instanceof Error && error.name === "ResponseError" && typeof (error as { status_code?: unknown }).status_code === "number";
}

function serverSaid(message: string): string {
  const excerpt = serverExcerpt(message);
  return excerpt ? ` (the server said: ${excerpt})` : "";
}

export function mapOllamaError(error: unknown, context: OllamaErrorContext): SynapseError {
  if (SynapseError.isInstance(error)) return error;
  if (isResponseError(error)) {
    if (error.status_code === 404) {
      return new SynapseError(
        "request",
        `Ollama has no model "${context.model}" installed; run \`ollama pull ${context.model}\` or pick an installed model (\`synapse models --provider ollama\`).`,
        // Installing a model is Ollama's own business (its app or `ollama pull`); picking one is the setting's.
        { status: 404, cause: error, pluginMessage: `Ollama has no model "${context.model}" installed; pick an installed one under "Model" in Local: Ollama, or install it with Ollama (\`ollama pull ${context.model}\`).` },
      );
    }
    if (error.status_code === 401 || error.status_code === 403) {
      // Ollama itself has no accounts: this came from a proxy in front of it, and Synapse has no
      // setting for credentials to send there, so the message must not point at one.
      return new SynapseError(
        "request",
        `Ollama at ${context.host} refused the request (${error.status_code}): something in front of it (a proxy or gateway) asks for credentials Synapse cannot send for Ollama; point Host at an Ollama that answers without them${serverSaid(error.error)}.`,
        { status: error.status_code, cause: error },
      );
    }
    return classifyHttpFailure({
      provider: "Ollama",
      model: context.model,
      status: error.status_code,
      serverMessage: error.error,
      ...(context.retryAfterMs !== undefined ? { retryAfterMs: context.retryAfterMs } : {}),
      cause: error,
    });
  }
  if (error instanceof SyntaxError) return envelopeError("Ollama", "the body is not JSON", OLLAMA_HOST_SETTING, error);
  if (error instanceof TypeError) return connectionError("Ollama", context.host, OLLAMA_HOST_SETTING, error);
  if (error instanceof Error) {
    if (/did not receive done/i.test(error.message)) {
      return new SynapseError("transport", "The Ollama stream ended before the reply was complete; try again.", { cause: error });
    }
    // An {"error": …} line mid-stream: the model crashed or ran out of memory.
    return new SynapseError("transport", `Ollama failed while answering (${serverExcerpt(error.message)}); try again or pick a smaller model.`, { cause: error });
  }
  return new SynapseError("unavailable", "Ollama failed without saying why.", { cause: error });
}
