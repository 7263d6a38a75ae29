/**
 * What every stage of one ingest shares (see ../ingest-note.ts): the request, the clock, the
 * provider behind the perimeter, the run's context (signal, deadline, usage), where its writes are
 * journaled, and the source registry. Built once, before the first stage, and never changed.
 */
import type { ProviderCapabilities } from "../../core/capabilities";
import { Perimeter } from "../../core/perimeter";
import type { InferenceProvider } from "../../core/provider";
import { createRunContext, type RunContext } from "../../core/run-context";
import { fixedWikiLanguage } from "../../core/wiki-language";
import { MemoryStateStore } from "../../vault/memory-state-store";
import type { StateStore } from "../../vault/state-store";
import type { WriteContext } from "../../write/write-context";
import type { IngestDeps, IngestRequest } from "../ingest-types";
import { effectiveWikiFolder } from "../page-paths";
import { SourceRegistry } from "../source-registry";

export interface IngestRun {
  readonly deps: IngestDeps;
  readonly request: IngestRequest;
  readonly now: () => number;
  /** When the ingest started, for the report's duration. */
  readonly started: number;
  readonly caps: ProviderCapabilities;
  readonly wikiFolder: string;
  readonly perimeter: Perimeter;
  /** The provider behind the perimeter: every call the stages make goes through it. */
  readonly guarded: InferenceProvider;
  readonly run: RunContext;
  readonly write: WriteContext;
  /** Null without state: nothing is known of earlier ingests and nothing is recorded. */
  readonly registry: SourceRegistry | null;
  /** What went wrong without failing the ingest, in the order it happened; stages only append. */
  readonly warnings: string[];
}

/** Without a write context from the root (tests), runs are journaled in memory only. */
function defaultWriteContext(store: StateStore = new MemoryStateStore()): WriteContext {
  return { store, writer: { kind: "cli", pid: null, host: null } };
}

export function startIngest(deps: IngestDeps, request: IngestRequest): IngestRun {
  const now = deps.now ?? (() => Date.now());
  const started = now();
  const { settings, provider } = deps;
  const wikiLanguage = fixedWikiLanguage(settings.wikiLanguage);
  const perimeter = new Perimeter({ localOnly: settings.localOnly, excludedFolders: settings.excludedFolders });
  const run = createRunContext({
    ...(request.signal ? { signal: request.signal } : {}),
    timeoutMs: settings.runTimeoutSeconds * 1000,
    ...(request.progress ? { progress: request.progress } : {}),
    ...(request.log ? { log: request.log } : {}),
    ...(wikiLanguage ? { wikiLanguage } : {}),
    now,
  });
  // The registry is written by runs, so it lives where runs are journaled.
  const write = deps.write ?? defaultWriteContext(deps.state);
  return {
    deps,
    request,
    now,
    started,
    caps: provider.capabilities(),
    wikiFolder: effectiveWikiFolder(settings.wikiFolder),
    perimeter,
    guarded: perimeter.guard(provider),
    run,
    write,
    registry: deps.write || deps.state ? new SourceRegistry(write.store) : null,
    warnings: [],
  };
}
