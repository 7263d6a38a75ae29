/** A write run for tests that apply plans directly: an in-memory store, a CLI writer. */
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import type { ApplyRun } from "../../src/write/apply";

export function aWriteRun(overrides: Partial<ApplyRun> = {}): ApplyRun {
  return { store: new MemoryStateStore(), writer: { kind: "cli", pid: null, host: null }, operation: "ingest", label: "Source note", wikiFolder: "wiki", ...overrides };
}
