/**
 * What the worker checks of a message before acting on it. Every message it receives comes from
 * this plugin's own main thread (remote-index.ts), built from the same code and typed by the same
 * protocol (protocol.ts), so it is not parsed again field by field: that would bundle zod into the
 * worker for a check the compiler already made. The envelope is checked — a known type and
 * request, a numeric id, an error as data — so that a wrong message gets a clear error reply
 * (or a `fatal` when it names no request), never a crash.
 */
import type { ErrorData, ToWorker } from "./protocol";
import { REQUEST_OPS } from "./protocol-names";

/** A message as the worker can act on it, or why it cannot, with the request id it carried if any. */
export type Inbound = { readonly ok: true; readonly message: ToWorker } | { readonly ok: false; readonly why: string; readonly request: number | null };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;
const isId = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value);

function isErrorData(value: unknown): value is ErrorData {
  return isObject(value) && typeof value.message === "string" && typeof value.name === "string" && (value.kind === undefined || typeof value.kind === "string");
}

export function readInbound(data: unknown): Inbound {
  if (!isObject(data)) return { ok: false, why: "not an object", request: null };
  const { type, id } = data;
  if (!isId(id)) return { ok: false, why: "no numeric id", request: null };
  switch (type) {
    case "request":
      if (typeof data.op !== "string" || !REQUEST_OPS.has(data.op)) return { ok: false, why: `no request "${String(data.op)}"`, request: id };
      return { ok: true, message: data as ToWorker };
    case "cancel":
      return { ok: true, message: data as ToWorker };
    case "answer":
      if (data.ok === true && "value" in data) return { ok: true, message: data as ToWorker };
      if (data.ok === false && isErrorData(data.error)) return { ok: true, message: data as ToWorker };
      return { ok: false, why: "an answer with neither a value nor an error", request: null };
    default:
      return { ok: false, why: `no message type "${String(type)}"`, request: null };
  }
}
