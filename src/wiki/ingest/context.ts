/**
 * The second stage: what the model is told of the wiki, and how the rest of the ingest knows which
 * pages and notes exist. With the index (a retriever and its catalogue) nothing lists the vault:
 * the context is the related pages packed into the provider's window, names are lookups. Without
 * it, the wiki folder is listed and the context is the pages the note names.
 */
import { nameKey } from "../../core/unicode";
import { pathKey } from "../path-keys";
import type { VaultPort } from "../../vault/vault-port";
import { contextEvent } from "./context-pack";
import { indexPath, logPath } from "../../core/wiki-paths";
import { DEFAULT_ANSWER_TOKENS, buildIngestContext, contextBudget, promptTokensFor, type IngestContext } from "./retrieval-context";
import type { IngestRequest, WikiCatalog } from "../ingest-types";
import { basenameOf } from "../page-paths";
import { inFolder, isInFolder } from "../read-note";
import { readRejections, type Rejection } from "./rejections";
import { buildWikiContext } from "./related-pages";
import { shareablePages } from "../shareable-pages";
import type { AdmittedNote } from "./admit";
import type { IngestRun } from "./run";

export interface NoteContext {
  /** index.md and log.md: never pages, never sources. */
  readonly special: ReadonlySet<string>;
  /** The index's catalogue, when the ingest runs with the index. */
  readonly catalog: WikiCatalog | undefined;
  /** The wiki's pages as listed; empty with the catalogue (nothing was listed). */
  readonly pagePaths: string[];
  /** The wiki's pages with this file name (from the catalogue; none without it). */
  readonly wikiNamed: (name: string) => string[];
  /** Does a note with this basename exist anywhere in the vault? */
  readonly noteExists: (name: string) => boolean;
  /** Does a wikilink to this name lead to a page or a note? (The validator's dangling check.) */
  readonly linkExists: (name: string) => boolean;
  readonly vaultContext: string;
  readonly retrievalContext: string;
  /** Retrieval's related pages, best first: the duplicate check's shortlist. */
  readonly shortlist: readonly string[];
  /** What the user refused of this note's pages before: the model is told, deleted pages stay deleted. */
  readonly refused: readonly Rejection[];
}

/** Without a link resolver (outside Obsidian), the vault listing tells which notes exist. */
function namesIn(paths: readonly string[]): (basename: string) => boolean {
  const names = new Set(paths.map((p) => pathKey(basenameOf(p))));
  return (basename) => names.has(nameKey(basename));
}

/** One listing of the vault (or of the wiki folder alone) serves both the wiki's pages and, outside Obsidian, the note names. */
async function listWiki(vault: VaultPort, wikiFolder: string, special: ReadonlySet<string>, everyNote: boolean): Promise<{ pages: string[]; everything: string[] }> {
  const everything = everyNote ? await vault.list("") : [];
  const listed = everyNote ? everything.filter(inFolder(wikiFolder)) : await vault.list(wikiFolder);
  return { pages: listed.filter((p) => !special.has(p)), everything };
}

/** Notes in the run log what the context holds and what did not fit. */
async function logged(request: IngestRequest, building: Promise<IngestContext>): Promise<IngestContext> {
  const context = await building;
  request.log?.context?.(contextEvent(context.packed));
  return context;
}

export async function gatherContext(ingest: IngestRun, note: AdmittedNote): Promise<NoteContext> {
  const { deps, request, wikiFolder } = ingest;
  const { vault, settings } = deps;
  const { notePath, text } = note;
  const special = new Set([indexPath(wikiFolder), logPath(wikiFolder)]);
  // With the index's catalogue, nothing lists the vault: names and the page count are lookups.
  const catalog = deps.retriever ? deps.catalog : undefined;
  const wiki = catalog ? null : await listWiki(vault, wikiFolder, special, deps.linkExists === undefined);
  const pagePaths = wiki?.pages ?? [];
  const wikiNamed = (name: string) => (catalog ? catalog.pathsNamed(name).filter((p) => isInFolder(p, wikiFolder) && !special.has(p)) : []);
  // Pages in excluded folders (even inside the wiki), or drawn from notes there, are neither
  // quoted nor named to the model. With retrieval, only the pages it returns are checked.
  const isShareable = async (path: string) => !special.has(path) && (await shareablePages(vault, [path], settings.excludedFolders)).length === 1;
  const fused = deps.retriever
    ? await logged(request, buildIngestContext({
        retriever: deps.retriever,
        noteText: text,
        notePath,
        wikiFolder,
        budgetTokens: contextBudget({
          maxContext: ingest.caps.maxContext,
          answerTokens: deps.answerTokens ?? DEFAULT_ANSWER_TOKENS,
          promptTokens: promptTokensFor(text),
          runTokenBudget: settings.tokenBudget,
        }),
        shareable: isShareable,
        pageCount: catalog ? catalog.pageCount() : pagePaths.length,
        ...(request.signal ? { signal: request.signal } : {}),
      }))
    : null;
  const context = fused ?? (await buildWikiContext(vault, wikiFolder, await shareablePages(vault, pagePaths, settings.excludedFolders), text));
  const known = new Set(pagePaths.map((p) => pathKey(basenameOf(p))));
  const noteExists = deps.linkExists ?? (catalog ? (name: string) => catalog.linkExists?.(name) ?? catalog.pathsNamed(name).length > 0 : namesIn(wiki?.everything ?? []));
  const refused = ingest.registry ? await readRejections(ingest.write.store, notePath).catch(() => []) : [];
  return {
    special,
    catalog,
    pagePaths,
    wikiNamed,
    noteExists,
    linkExists: (name) => known.has(nameKey(name)) || wikiNamed(name).length > 0 || noteExists(name),
    vaultContext: context.vaultContext,
    retrievalContext: context.retrievalContext,
    shortlist: fused?.candidates ?? [],
    refused,
  };
}

