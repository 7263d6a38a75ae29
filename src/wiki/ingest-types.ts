/** The shapes of one ingest as callers (CLI, plugin) see it. */
import type { RunLogger } from "../core/log";
import type { InferenceProvider } from "../core/provider";
import type { ProgressEvent } from "../core/run-context";
import type { StopReason } from "../core/orchestrator";
import type { DanglingLink } from "../core/validator";
import type { ErrorSummary } from "../core/errors";
import type { ProviderMode } from "../core/capabilities";
import type { Settings } from "../settings/schema";
import type { StateStore } from "../vault/state-store";
import type { VaultPort } from "../vault/vault-port";
import type { Retriever } from "../retrieval";
import type { WriteContext } from "../write/write-context";
import type { PageAction } from "../write/planned-change";
import type { Contradiction } from "./contradictions";
import type { LinkedNote } from "./ingest/canon-notes";

export type { Contradiction } from "./contradictions";
import type { ReviewHook } from "./review";

export type { PageAction } from "../write/planned-change";

export interface PageChange {
  /** Vault-relative path of the page. */
  readonly path: string;
  readonly type: string;
  readonly title: string;
  /**
   * created: new file; updated: this note's own part of the page revised (or only its frontmatter);
   * merged: this note's material added beside other notes' parts or the user's text; unchanged: no write.
   */
  readonly action: PageAction;
  /** A sentence worth showing, e.g. that the user's edit of this note's part was kept. */
  readonly detail?: string;
  /** The same sentence as Obsidian shows it, when its advice differs (a palette command, not a flag). */
  readonly pluginDetail?: string;
}

/** A page with `synapse: locked` that this run would have changed and left alone. */
export interface LockedPage {
  readonly path: string;
  readonly title: string;
  /** The Markdown Synapse would have added. */
  readonly wouldAdd: string;
}

/**
 * How an ingest ended: the loop's reason, "up_to_date" when the note had not changed and no
 * provider was called, or "unreadable" when the note could not be read from disk.
 */
export type IngestStopReason = StopReason | "up_to_date" | "unreadable";

export interface IngestReport {
  /** True when the ingest succeeded: pages were planned and applied, or the note was already up to date. */
  readonly converged: boolean;
  readonly stopReason: IngestStopReason;
  readonly dryRun: boolean;
  readonly attempts: { readonly analyze: number; readonly generate: number };
  /** Pages written (or, with dryRun, planned); empty unless converged. */
  readonly pages: readonly PageChange[];
  /**
   * Set when the note's content had not changed since its last ingest into this wiki: nothing was
   * sent to any provider and nothing written. `since` is that ingest's ISO timestamp; `movedFrom`
   * the path it was ingested under when the note has been moved or renamed since.
   */
  readonly upToDate: { readonly since: string; readonly movedFrom: string | null } | null;
  /** Changes the review left out (not written); empty without a review. */
  readonly declined: readonly PageChange[];
  /**
   * `estimatedCalls`: requests among them that never returned usage (cancelled, timed out), whose
   * tokens are estimated from the prompt; 0 when every count is the server's.
   */
  /** Cache reads and writes are parts of the input count (absent: none). */
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number; readonly costUsd: number | null; readonly estimatedCalls?: number; readonly cacheReadTokens?: number; readonly cacheWriteTokens?: number };
  readonly provider: { readonly name: string; readonly mode: ProviderMode; readonly isLocal: boolean; readonly model: string | null };
  readonly error: ErrorSummary | null;
  /** The last attempt's validation problems, one sentence each. */
  readonly issues: readonly string[];
  readonly dangling: readonly DanglingLink[];
  /** Contradictions between this note and other notes found on the pages (shown there as callouts). */
  readonly contradictions: readonly Contradiction[];
  /** Locked pages this run left alone, with what it would have added. */
  readonly locked: readonly LockedPage[];
  /** New pages not written because a note of the user's covers their subject (ingest/canon-notes.ts). */
  readonly linkedNotes: readonly LinkedNote[];
  readonly durationMs: number;
}

export interface IngestDeps {
  readonly vault: VaultPort;
  /** The provider as built by the factory; the ingest puts it behind the perimeter itself. */
  readonly provider: InferenceProvider;
  readonly settings: Settings;
  /**
   * Synapse's state for this vault, for the source registry: with it (or with `write`, whose store
   * it defaults to), an ingest skips a note whose content is unchanged since its last ingest and
   * records each successful one; without either, every ingest runs. Without `write`, runs are
   * journaled and recorded here too (the registry is written by runs).
   */
  readonly state?: StateStore;
  readonly now?: () => number;
  /**
   * Where runs are journaled, locked and recorded for undo, and who writes (built once by the
   * plugin, the CLI or the bridge). Without it (tests), an in-memory store is used.
   */
  readonly write?: WriteContext;
  /**
   * Does a note with this basename exist anywhere in the vault? (Obsidian: metadataCache.) Without
   * one, the ingest lists the vault once.
   */
  readonly linkExists?: (basename: string) => boolean;
  /**
   * Fused retrieval over the vault's index. With one, the model's context is the wiki pages most
   * related to the note, packed into the provider's window; without one, the pages the note names.
   */
  readonly retriever?: Retriever;
  /**
   * What the vault's index knows without a listing: with it (and a retriever), an ingest neither
   * lists the vault nor reads every wiki page, so its cost does not grow with the wiki, and the
   * pages it wrote are indexed at once. Without it, the ingest lists the wiki folder (tests, bridge).
   */
  readonly catalog?: WikiCatalog;
  /** Tokens reserved for the model's answer when packing the context (default 4,096). */
  readonly answerTokens?: number;
}

/** The index's answers an ingest needs besides retrieval (src/retrieval/catalog.ts builds one over a VaultIndex). */
export interface WikiCatalog {
  /** How many pages the wiki has, index.md and log.md not counted. */
  pageCount(): number;
  /** Notes and pages anywhere in the (indexed) vault whose file name, without `.md`, is `basename` (case and Unicode form ignored). */
  pathsNamed(basename: string): readonly string[];
  /**
   * Does a wikilink to this target lead to a note, indexed or not? A note in an excluded folder
   * exists (so a link to it is not dangling) though the index never holds it. Absent: `pathsNamed`.
   */
  linkExists?(target: string): boolean;
  /** Brings the index up to date with files a run just wrote, moved or removed. */
  refresh(paths: readonly string[]): Promise<void>;
}

export interface IngestRequest {
  /** Vault-relative path of the note to ingest. */
  readonly notePath: string;
  readonly dryRun?: boolean;
  /**
   * Ingest even when the note is unchanged since its last ingest, and write again the pages of the
   * note that the user deleted (without it, those stay deleted).
   */
  readonly force?: boolean;
  /**
   * Called with the plan before anything is written (in a dry run too, where its answer changes
   * nothing); only the changes it returns are applied. Without it, the whole plan is applied.
   */
  readonly review?: ReviewHook;
  readonly signal?: AbortSignal;
  readonly progress?: (event: ProgressEvent) => void;
  readonly log?: RunLogger;
}
