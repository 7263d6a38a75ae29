/**
 * What both ends of the worker's channel share: errors as data and back, the buffers a typed
 * array can hand over, and a table of the calls waiting for their answer, each under an id.
 */
import { ERROR_KINDS, SynapseError, type ErrorKind } from "../../core/errors";
import type { ErrorData } from "./protocol";

export function errorData(error: unknown): ErrorData {
  if (SynapseError.isInstance(error)) return { message: error.message, name: error.name, kind: error.kind };
  if (error instanceof Error) return { message: error.message, name: error.name };
  return { message: String(error), name: "Error" };
}

const KINDS: ReadonlySet<string> = new Set(ERROR_KINDS);

/** The error again on this side: a SynapseError of its kind, else an Error of its name (an abort stays an AbortError). */
export function errorFrom(data: ErrorData): Error {
  if (data.kind !== undefined && KINDS.has(data.kind)) return new SynapseError(data.kind as ErrorKind, data.message);
  const error = new Error(data.message);
  error.name = data.name;
  return error;
}

/**
 * A typed array whose bytes go to the other side in the transfer list: its buffer when it is the
 * whole of it, else a copy of its bytes first (a view on a larger buffer must not hand over the rest).
 */
export function transferable<T extends Uint8Array | Float32Array>(array: T): { readonly array: T; readonly buffer: ArrayBuffer } {
  const whole = array.buffer instanceof ArrayBuffer && array.byteOffset === 0 && array.byteLength === array.buffer.byteLength;
  const owned = (whole ? array : array.slice()) as T;
  return { array: owned, buffer: owned.buffer as ArrayBuffer };
}

/** Calls waiting for their answer, by id; all rejected at once when the other side is gone. */
export class Pending<Entry> {
  private next = 1;
  private readonly waiting = new Map<number, { readonly entry: Entry; readonly resolve: (value: unknown) => void; readonly reject: (error: unknown) => void }>();

  /** A new id, and the promise its answer settles. */
  begin(entry: Entry): { readonly id: number; readonly answer: Promise<unknown> } {
    const id = this.next++;
    const answer = new Promise<unknown>((resolve, reject) => this.waiting.set(id, { entry, resolve, reject }));
    return { id, answer };
  }

  entry(id: number): Entry | undefined {
    return this.waiting.get(id)?.entry;
  }

  resolve(id: number, value: unknown): void {
    const waiting = this.waiting.get(id);
    this.waiting.delete(id);
    waiting?.resolve(value);
  }

  reject(id: number, error: unknown): void {
    const waiting = this.waiting.get(id);
    this.waiting.delete(id);
    waiting?.reject(error);
  }

  rejectAll(error: unknown): void {
    const all = [...this.waiting.values()];
    this.waiting.clear();
    for (const waiting of all) waiting.reject(error);
  }

  get size(): number {
    return this.waiting.size;
  }
}
