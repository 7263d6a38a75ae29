/**
 * Errors of the two Stainless-generated SDKs (`openai`, `@anthropic-ai/sdk`) into the taxonomy.
 * Both throw the same family: `APIError` with `status` and `headers`, and status-less
 * `APIConnectionError`, `APIConnectionTimeoutError` and `APIUserAbortError`. Each adapter passes
 * its own SDK's classes, so `instanceof` compares classes from the same bundle.
 */
import { SynapseError } from "../core/errors";
import { classifyHttpFailure, connectionError, envelopeError, serverExcerpt } from "./classify-error";
import { parseRetryAfter } from "./retry";
import type { ServerSetting } from "./server-setting";

type Ctor = abstract new (...args: never[]) => Error;

export interface SdkErrorClasses {
  readonly APIError: Ctor;
  readonly APIConnectionError: Ctor;
  readonly APIConnectionTimeoutError: Ctor;
  readonly APIUserAbortError: Ctor;
}

class NeverThrown extends Error {}

/**
 * The error classes of an SDK that may not be loaded yet. An SDK that was never loaded threw
 * nothing, so until then no error is one of its classes.
 */
export function sdkErrorClasses(sdk: SdkErrorClasses | null): SdkErrorClasses {
  return sdk ?? { APIError: NeverThrown, APIConnectionError: NeverThrown, APIConnectionTimeoutError: NeverThrown, APIUserAbortError: NeverThrown };
}

export interface SdkErrorContext {
  readonly label: string;
  readonly model: string;
  /** Where the client points, for connection messages (no credentials). */
  readonly where: string;
  readonly secrets: readonly string[];
  /** The setting that holds that address ("Base URL" under its section), for messages that say to check it. */
  readonly setting: ServerSetting;
}

interface StatusError {
  status?: number;
  headers?: { get(name: string): string | null } | undefined;
  requestID?: string | null;
  message: string;
  error?: unknown;
}

/** The SDK message is "<status> <server message>"; keep the server's words. */
function serverMessageOf(error: StatusError): string {
  return error.message.replace(/^\d{3}\s+/, "");
}

/** Anthropic streams report overload as an SSE `error` event, which the SDK throws without a status. */
function streamErrorType(error: StatusError): string | null {
  const body = error.error as { error?: { type?: unknown }; type?: unknown } | undefined;
  const type = body?.error?.type ?? body?.type;
  return typeof type === "string" ? type : null;
}

export function mapSdkError(error: unknown, classes: SdkErrorClasses, context: SdkErrorContext): SynapseError {
  if (SynapseError.isInstance(error)) return error;
  if (error instanceof classes.APIUserAbortError) {
    return new SynapseError("cancelled", "The run was cancelled.", { cause: error });
  }
  if (error instanceof classes.APIConnectionTimeoutError) {
    return new SynapseError("timeout", `${context.label} did not answer in time (setting "Request timeout").`, { cause: error });
  }
  if (error instanceof classes.APIConnectionError) return connectionError(context.label, context.where, context.setting, error);
  if (error instanceof classes.APIError) {
    const e = error as unknown as StatusError;
    if (typeof e.status === "number") {
      const retryAfterMs = e.headers ? parseRetryAfter((name) => e.headers?.get(name)) : undefined;
      return classifyHttpFailure({
        provider: context.label,
        model: context.model,
        status: e.status,
        serverMessage: serverMessageOf(e),
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
        requestId: e.requestID ?? null,
        secrets: context.secrets,
        cause: error,
      });
    }
    const type = streamErrorType(e);
    if (type === "overloaded_error" || type === "rate_limit_error") {
      return new SynapseError("rate_limit", `${context.label} is overloaded; try again in a moment.`, { cause: error });
    }
    return new SynapseError("transport", `${context.label} reported an error mid-stream (${serverExcerpt(e.message, context.secrets)}); try again.`, { cause: error });
  }
  if (error instanceof SyntaxError) return envelopeError(context.label, "the body is not JSON", context.setting, error);
  if (error instanceof TypeError) return connectionError(context.label, context.where, context.setting, error);
  if (error instanceof Error) {
    return new SynapseError("transport", `${context.label} failed: ${serverExcerpt(error.message, context.secrets)}.`, { cause: error });
  }
  return new SynapseError("unavailable", `${context.label} failed without saying why.`, { cause: error });
}
