/** Racing a promise against an abort signal. */
import { SynapseError } from "./errors";

const cancelled = (signal: AbortSignal): Error =>
  signal.reason instanceof Error ? signal.reason : new SynapseError("cancelled", "The run was cancelled.");

/**
 * Settles with `promise`, or rejects as soon as `signal` aborts. Some transports cannot abort
 * (Obsidian's requestUrl); racing keeps timeouts and cancel working there too, the late reply is
 * simply ignored. `reasonFor` says what to reject with (fetch rejects with an AbortError).
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal, reasonFor: (signal: AbortSignal) => Error = cancelled): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(reasonFor(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => undefined);
      reject(reasonFor(signal));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
