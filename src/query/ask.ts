/**
 * Ask the wiki: retrieve → pack a numbered context (wiki pages first, source notes second) →
 * stream the provider's answer → check every citation against what was sent. A question the
 * vault cannot answer is answered "not in your wiki" without calling any model, unless the user
 * asked for a general answer, which is then labelled as not from their vault.
 * Expected failures come back in the report, never as exceptions.
 */
import { SynapseError, summariseError, toSynapseError } from "../core/errors";
import { fixedWikiLanguage } from "../core/wiki-language";
import type { RunLogger } from "../core/log";
import { splitFrontmatter } from "../core/markdown";
import { stripProvenance } from "../core/provenance-strip";
import { isExcluded, Perimeter } from "../core/perimeter";
import { runCost } from "../core/pricing";
import type { InferenceProvider } from "../core/provider";
import { createRunContext, throwIfStopped, type ConsultedPage, type NoteScope } from "../core/run-context";
import type { Message } from "../core/schemas";
import type { RetrievalHit, Retriever, Scope } from "../retrieval";
import type { Settings } from "../settings/schema";
import type { VaultPort } from "../vault/vault-port";
import { effectiveWikiFolder } from "../wiki/page-paths";
import { isInFolder } from "../wiki/read-note";
import { shareablePaths } from "../wiki/shareable-pages";
import { nothingFits, questionBudget, questionTokens } from "./budget";
import { checkCitations, unverifiedAnswerWarning, type Citation, type ConsultedPassage } from "./citations";
import { packContext, type ContextPassage } from "./context";
import { isRelevant, questionTerms } from "./relevance";
import type { ProviderMode } from "../core/capabilities";
import type { ErrorSummary } from "../core/errors";

export const MAX_QUESTION_CHARS = 4000;

export const NOT_IN_WIKI =
  "Not in your wiki: nothing in it matches this question, so there is nothing to answer from. Rephrase the question, ingest a note about it, or ask for a general answer (not from your vault).";
export const GENERAL_LABEL = "**Not from your vault** — a general answer from the model's own knowledge:\n\n";

export type QueryScope = "wiki" | "notes" | "all";

export interface AskDeps {
  readonly vault: VaultPort;
  readonly provider: InferenceProvider;
  readonly retriever: Retriever;
  readonly settings: Settings;
  readonly now?: () => number;
}

export interface AskRequest {
  readonly question: string;
  /** Earlier turns of the conversation, oldest first. */
  readonly history?: readonly Message[];
  /** Defaults to the "Ask from" setting: the wiki, or the wiki then the notes. */
  readonly scope?: QueryScope;
  /** Only the notes in these folders (instead of all notes), for `--scope <folder>`. */
  readonly folders?: readonly string[];
  /** Answer from general knowledge when the vault has nothing relevant (labelled as such). */
  readonly general?: boolean;
  readonly signal?: AbortSignal;
  /** Each piece of the answer as it arrives. */
  readonly onText?: (text: string) => void;
  readonly log?: RunLogger;
}

export interface AskReport {
  readonly question: string;
  readonly answer: string;
  /** "vault": answered from the context; "none": nothing relevant, no model called; "general": labelled general answer. */
  readonly grounding: "vault" | "none" | "general";
  readonly citations: readonly Citation[];
  /** Set when an answer from the vault has no verified citation: it must not pass for a grounded one. */
  readonly unverifiedWarning: string | null;
  /** What was sent as context, in order, so a reader can check each citation. */
  readonly passages: readonly ContextPassage[];
  /** Pages the backend read itself beyond those passages (an agent's Read); citing them verifies too. */
  readonly consulted: readonly ConsultedPassage[];
  /** Relevant passages left out because the model's context window, or the token budget, had no room for them. */
  readonly leftOut: number;
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number; readonly costUsd: number | null };
  readonly provider: { readonly name: string; readonly mode: ProviderMode; readonly isLocal: boolean; readonly model: string | null };
  readonly error: ErrorSummary | null;
  readonly durationMs: number;
}

/** Refuses what must not reach a model: an empty or oversized question. */
export function checkQuestion(question: string): string {
  const q = question.trim();
  if (!q) throw new SynapseError("input", "The question is empty; type what you want to know.");
  if (q.length > MAX_QUESTION_CHARS) {
    throw new SynapseError("input", `The question is ${q.length.toLocaleString("en-US")} characters, over the ${MAX_QUESTION_CHARS.toLocaleString("en-US")}-character limit; shorten it.`);
  }
  return q;
}

async function retrieveRelevant(retriever: Retriever, question: string, scope: Scope, limit: number, signal: AbortSignal): Promise<RetrievalHit[]> {
  const terms = questionTerms(question);
  const hits = await retriever.retrieve(question, { scope, limit, signal });
  return hits.filter((h) => isRelevant(h, terms));
}

/**
 * The pages a backend read itself, as passages a citation can name: each once, none already sent,
 * none in an excluded folder (the bridge never stages one; this holds the line on our side too).
 */
function consultedPassages(read: readonly ConsultedPage[], sent: readonly ContextPassage[], wikiFolder: string, excludedFolders: readonly string[]): ConsultedPassage[] {
  const seen = new Set(sent.map((p) => p.path));
  const out: ConsultedPassage[] = [];
  for (const page of read) {
    if (seen.has(page.path) || isExcluded(page.path, excludedFolders)) continue;
    seen.add(page.path);
    const title = page.path.slice(page.path.lastIndexOf("/") + 1).replace(/\.md$/i, "");
    // What supports a citation is the page's text: its frontmatter, source markers and attribution
    // lines are bookkeeping, and the view shows this text as the source's snippet.
    out.push({ path: page.path, title, text: stripProvenance(splitFrontmatter(page.text).body), kind: isInFolder(page.path, wikiFolder) ? "wiki" : "note" });
  }
  return out;
}

export async function askWiki(deps: AskDeps, request: AskRequest): Promise<AskReport> {
  const now = deps.now ?? (() => Date.now());
  const started = now();
  const { settings, vault, provider } = deps;
  const caps = provider.capabilities();
  // Answers follow the wiki's language when the user fixed one, like the pages they come from.
  const wikiLanguage = fixedWikiLanguage(settings.wikiLanguage);
  const perimeter = new Perimeter({ localOnly: settings.localOnly, excludedFolders: settings.excludedFolders });
  const scopeAsked = request.scope ?? (settings.queryScope === "wiki" ? "wiki" : "all");
  const noteScope: NoteScope = request.folders ? { folders: [...request.folders] } : scopeAsked === "wiki" ? "none" : "all";
  const read: ConsultedPage[] = [];
  const run = createRunContext({
    ...(request.signal ? { signal: request.signal } : {}),
    noteScope,
    timeoutMs: settings.runTimeoutSeconds * 1000,
    ...(request.log ? { log: request.log } : {}),
    ...(wikiLanguage ? { wikiLanguage } : {}),
    consulted: (pages) => read.push(...pages),
    now,
  });
  const history = request.history ?? [];
  let answer = "";
  let grounding: AskReport["grounding"] = "none";
  let passages: readonly ContextPassage[] = [];
  let citations: Citation[] = [];
  let consulted: ConsultedPassage[] = [];
  let leftOut = 0;
  let error: SynapseError | null = null;
  const emit = (text: string) => {
    answer += text;
    request.onText?.(text);
  };

  try {
    const question = checkQuestion(request.question);
    perimeter.admitProvider(provider);
    // Before anything is read or sent: a question the token budget cannot hold is refused whole.
    // Measured as the adapter measures the prompt it plans a window for (budget.ts).
    const promptTokenRatio = provider.promptTokenRatio?.() ?? 1;
    const budget = questionBudget({ maxContext: caps.maxContext, tokenBudget: settings.tokenBudget, question, history, promptTokenRatio });
    const wikiFolder = effectiveWikiFolder(settings.wikiFolder);
    const scope = scopeAsked;
    if (scope !== "notes" && (await vault.list(wikiFolder)).length === 0 && !request.folders) {
      throw new SynapseError("input", `There is no wiki yet in "${wikiFolder}"; ingest a note first, then ask.`);
    }
    const found = scope === "notes" || request.folders ? [] : await retrieveRelevant(deps.retriever, question, { kind: "wiki" }, 12, run.signal);
    const noteScope: Scope | null = request.folders ? { kind: "folders", folders: request.folders } : scope === "wiki" ? null : { kind: "notes" };
    const notesFound = noteScope ? await retrieveRelevant(deps.retriever, question, noteScope, 8, run.signal) : [];
    // A page drawn from a note in an excluded folder carries that note's words: never quoted, whichever
    // scope found it (a folder scope may hold the wiki).
    const shareable = await shareablePaths(vault, [...found, ...notesFound].map((h) => h.path), wikiFolder, settings.excludedFolders);
    const wikiHits = found.filter((h) => shareable.has(h.path));
    const noteHits = notesFound.filter((h) => shareable.has(h.path));
    throwIfStopped(run);
    const packed = packContext(wikiHits, noteHits, budget.contextTokens, settings.excludedFolders, questionTokens(promptTokenRatio));
    passages = packed.passages;
    leftOut = packed.leftOut;
    // The wiki has something on this, but the limits keep all of it out: say so, never "not in your wiki".
    if (passages.length === 0 && leftOut > 0) throw nothingFits(budget, leftOut);
    const messages: Message[] = [...history, { role: "user", content: question }];

    if (passages.length === 0 && !request.general) {
      emit(NOT_IN_WIKI);
    } else {
      grounding = passages.length === 0 ? "general" : "vault";
      const guarded = perimeter.guard(provider);
      if (grounding === "general") {
        emit(GENERAL_LABEL);
        messages.unshift({ role: "system", content: "The user's vault has nothing on this question and they asked for a general answer. Answer from general knowledge; cite no pages." });
      }
      for await (const piece of guarded.chat(messages, packed.text, run)) {
        throwIfStopped(run);
        emit(piece);
      }
      // A stream that simply ends when cancelled is still a cancelled answer, not a short one.
      throwIfStopped(run);
      consulted = consultedPassages(read, passages, wikiFolder, settings.excludedFolders);
      const existing = new Set<string>();
      for (const p of [...passages, ...consulted]) if (await vault.stat(p.path)) existing.add(p.path);
      citations = checkCitations(answer, passages, (path) => existing.has(path), consulted);
    }
  } catch (thrown) {
    error = toSynapseError(thrown);
  }

  const usage = run.usage.totals();
  return {
    question: request.question,
    answer,
    grounding,
    citations,
    unverifiedWarning: unverifiedAnswerWarning(grounding, citations, error !== null),
    passages,
    consulted,
    leftOut,
    usage: { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, costUsd: runCost(run.usage, caps.model, settings.prices) },
    provider: { name: caps.name, mode: caps.mode, isLocal: caps.isLocal, model: caps.model },
    error: error ? summariseError(error) : null,
    durationMs: now() - started,
  };
}
