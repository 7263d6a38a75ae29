/**
 * The protocol's names and numbers that both ends use as values (protocol.ts holds the shapes, as
 * zod schemas). Kept apart so that the worker, which imports only types from protocol.ts, bundles
 * no zod: it checks a message's envelope against these names (inbound.ts).
 */
import type { RequestOp } from "./protocol";

/** Every request the worker serves; `satisfies` keeps the list the same as protocol.ts's. */
export const REQUEST_OPS: ReadonlySet<string> = new Set(
  Object.keys({ open: true, apply: true, sync: true, compact: true, embedPending: true, flush: true, close: true, retrieve: true, reconnect: true } satisfies Record<RequestOp, true>),
);

/** A path's place in the catalogue: gone, indexed, or present but never indexed (excluded, index.md, log.md). */
export const PATH_GONE = 0;
export const PATH_INDEXED = 1;
export const PATH_UNINDEXED = 2;

/** Paths per catalogue message. */
export const CATALOG_PIECE = 2048;
