/**
 * What the model sees of the wiki when it writes pages for a note: the wiki pages most related to
 * the note by fused retrieval over its text (title, headings, tags, links and key terms — not title
 * matching), chosen best first into the room the provider's context window leaves after the prompt
 * and the answer. The same ranked pages are the shortlist of the duplicate check and the titles the
 * analysis is told about. Cost: one retrieval and nothing else, whatever the wiki's size.
 *
 * What is sent is laid out for prompt caching: the chosen titles and passages in a stable order
 * (related-order.ts), and nothing in them that changes from one ingest to the next when the pages
 * do not — so notes about one subject send the same text, and a provider's cache reads it again.
 */
import { frontmatterList, headings, inlineTags, splitFrontmatter } from "../../core/markdown";
import { plainText } from "../../core/plain-text";
import { wikilinkTargets, linkBasename } from "../../core/wikilinks";
import { packHits, packedText, type Packed } from "./context-pack";
import { estimateTokens } from "../../core/tokens";
import { inStableOrder, titlesInStableOrder } from "./related-order";
import type { RetrievalHit, Retriever } from "../../retrieval";

/** Assumed window when a provider declares none (Offline, an unknown model). */
export const DEFAULT_CONTEXT_WINDOW = 8192;
/** Assumed answer size when the caller does not say. */
export const DEFAULT_ANSWER_TOKENS = 4096;
/** Instructions and the JSON schema the prompts carry besides the note and the context. */
export const PROMPT_OVERHEAD_TOKENS = 1500;
/** Notes asked of the retriever (each as its best chunk); what does not fit is left out (and logged). */
const RETRIEVE_LIMIT = 40;
/** Titles named to the analysis. */
const MAX_TITLES = 40;
const QUERY_TERMS = 24;
/**
 * Hits scoring under this share of the best hit share only common words with the note: not worth
 * the model's attention (or the tokens), even when there is room.
 */
export const RELATED_FLOOR = 0.25;

export interface ContextBudget {
  /** The provider's declared window in tokens; 0 when unknown. */
  readonly maxContext: number;
  /** Tokens reserved for the model's reply. */
  readonly answerTokens: number;
  /** Tokens the prompt takes besides the context (estimated). */
  readonly promptTokens: number;
  /** The run's token budget (sent + received, 0 = none): the context never eats more than a quarter of it, so a retry still fits. */
  readonly runTokenBudget?: number;
}

/** Tokens the context may take. Never negative. */
export function contextBudget(b: ContextBudget): number {
  const window = b.maxContext > 0 ? b.maxContext : DEFAULT_CONTEXT_WINDOW;
  const room = window - b.promptTokens - b.answerTokens;
  const cap = b.runTokenBudget && b.runTokenBudget > 0 ? Math.floor(b.runTokenBudget / 4) : Number.POSITIVE_INFINITY;
  return Math.max(0, Math.min(room, cap));
}

/** The prompt's size besides the context: the note (analyse sends it whole) and the instructions. */
export function promptTokensFor(noteText: string): number {
  return estimateTokens(noteText) + PROMPT_OVERHEAD_TOKENS;
}

function words(text: string): string[] {
  const segmenter = typeof Intl.Segmenter === "function" ? new Intl.Segmenter(undefined, { granularity: "word" }) : null;
  if (!segmenter) return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const out: string[] = [];
  for (const piece of segmentPieces(text.toLowerCase())) for (const s of segmenter.segment(piece)) if (s.isWordLike) out.push(s.segment);
  return out;
}

/** Longest text handed to the segmenter at once: on a long run of punctuation it is quadratic. */
const SEGMENT_PIECE = 4096;

/**
 * The text in pieces of at most `SEGMENT_PIECE` characters, cut after a space or line break (where
 * a word always ends) before a character that starts a word of its own; a run that long without
 * one is cut where the piece is full.
 */
export function* segmentPieces(text: string): Generator<string> {
  let from = 0;
  while (text.length - from > SEGMENT_PIECE) {
    let cut = from + SEGMENT_PIECE;
    while (cut > from && !(/[ \n]/.test(text[cut - 1] ?? "") && /^[^\p{M}\p{Cf}\s]/u.test(text[cut] ?? ""))) cut--;
    if (cut === from) cut = from + SEGMENT_PIECE;
    yield text.slice(from, cut);
    from = cut;
  }
  yield text.slice(from);
}

/** Words long enough to carry meaning: 4+ letters, or 2+ in scripts written without spaces. */
function meaningful(word: string): boolean {
  if (/^\p{N}+$/u.test(word)) return false;
  return /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u.test(word) ? [...word].length >= 2 : word.length >= 4;
}

/**
 * The query that stands for the note: its title, headings, tags and link targets, and the terms it
 * uses most. A note about "Zettelkasten" whose wiki page is called "Slip-box method" is found by the
 * words the two share, which a title match never sees.
 */
export function noteQuery(noteText: string, noteTitle: string): string {
  const { frontmatter, body } = splitFrontmatter(noteText);
  const title = typeof frontmatter.title === "string" ? frontmatter.title : noteTitle;
  const parts = [title, ...headings(body).map((h) => h.text), ...frontmatterList(frontmatter.tags), ...inlineTags(body)];
  parts.push(...wikilinkTargets(body).map(linkBasename));
  const counts = new Map<string, number>();
  for (const w of words(plainText(body))) if (meaningful(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
  const terms = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, QUERY_TERMS).map(([w]) => w);
  const seen = new Set<string>();
  const query: string[] = [];
  for (const part of [...parts, ...terms]) {
    const clean = part.replace(/\s+/g, " ").trim();
    if (clean && !seen.has(clean.toLowerCase())) {
      seen.add(clean.toLowerCase());
      query.push(clean);
    }
  }
  return query.join(" ").slice(0, 2000);
}

export interface IngestContextInput {
  readonly retriever: Retriever;
  readonly noteText: string;
  readonly notePath: string;
  readonly wikiFolder: string;
  /** Tokens the packed pages may take (see `contextBudget`). */
  readonly budgetTokens: number;
  /**
   * May this page be quoted or named to the provider? False for pages drawn from notes in excluded
   * folders; checked only for the pages retrieval returned.
   */
  readonly shareable: (path: string) => Promise<boolean>;
  /** How many pages the wiki has, when known: an empty wiki is said to be empty. */
  readonly pageCount?: number;
  readonly signal?: AbortSignal;
}

export interface IngestContext {
  /** For analysis: how to link, and the titles of the pages most related to the note, in their stable order. */
  readonly vaultContext: string;
  /** For generation: the vault context and the packed related passages, in their stable order. */
  readonly retrievalContext: string;
  /** Titles of related pages, best first. */
  readonly related: readonly string[];
  /** Paths of related wiki pages, best first: the duplicate check's shortlist. */
  readonly candidates: readonly string[];
  /** The passages chosen best first, laid out in their stable order. */
  readonly packed: Packed;
}

/** Introduces the quoted passages after the vault context. */
const PASSAGES_INTRO = "\n\nExisting wiki pages related to the note:\n\n";

function withPassages(vaultContext: string, packed: Packed): string {
  const passages = packedText(packed);
  return passages ? `${vaultContext}${PASSAGES_INTRO}${passages}` : vaultContext;
}

/**
 * What the analysis is told of the wiki, within the budget: how to link, and the titles of the
 * related pages. Titles come before passages: they are a few tokens each, they are all the
 * analysis sees of the wiki, and they name pages the passages have no room to quote. When the
 * budget cannot hold them all, the least related go first; those kept are named in their stable
 * order. When it cannot hold even the sentence, the context is empty.
 *
 * The number of pages is not said: it changes with nearly every ingest, and at the start of the
 * text that repeats from note to note it would end every prefix a prompt cache could read again.
 */
function fitVaultContext(input: IngestContextInput, related: readonly string[], budget: number): string {
  const empty = input.pageCount === 0 || (input.pageCount === undefined && related.length === 0);
  if (empty) return fitOrNothing(`The wiki (folder "${input.wikiFolder}") is empty.`, budget);
  const sentence = `The wiki (folder "${input.wikiFolder}") has pages. Link to existing pages by their exact title, and update a page that covers the same subject instead of writing it again under another title.`;
  if (related.length === 0) return fitOrNothing(`${sentence} None of them is related to this note.`, budget);
  const withTitles = (n: number) => `${sentence} The pages most related to this note: ${titlesInStableOrder(related.slice(0, n)).join("; ")}${related.length > n ? "; …" : ""}`;
  // The estimate grows with the number of titles: the most that fit, by bisection.
  let low = 0;
  let high = Math.min(related.length, MAX_TITLES);
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (estimateTokens(withTitles(mid)) <= budget) low = mid;
    else high = mid - 1;
  }
  return low > 0 ? withTitles(low) : fitOrNothing(sentence, budget);
}

/** The passages chosen best first (packHits), laid out in their stable order. */
function packInStableOrder(hits: readonly RetrievalHit[], budget: number): Packed {
  const packed = packHits(hits, budget);
  return { ...packed, blocks: inStableOrder(packed.blocks, (block) => block.hit) };
}

function fitOrNothing(text: string, budget: number): string {
  return estimateTokens(text) <= budget ? text : "";
}

function titleOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/i, "");
}

export async function buildIngestContext(input: IngestContextInput): Promise<IngestContext> {
  const query = noteQuery(input.noteText, titleOf(input.notePath));
  const found = query
    ? await input.retriever.retrieve(query, { scope: { kind: "wiki" }, limit: RETRIEVE_LIMIT, ...(input.signal ? { signal: input.signal } : {}) })
    : [];
  const verdicts = new Map<string, boolean>();
  const hits: RetrievalHit[] = [];
  const floor = (found[0]?.score ?? 0) * RELATED_FLOOR;
  for (const hit of found) {
    if (hit.path === input.notePath || hit.score < floor) continue;
    let ok = verdicts.get(hit.path);
    if (ok === undefined) {
      ok = await input.shareable(hit.path).catch(() => false);
      verdicts.set(hit.path, ok);
    }
    if (ok) hits.push(hit);
  }
  const candidates = [...new Set(hits.map((h) => h.path))];
  const related = candidates.map(titleOf);
  const budget = Math.max(0, Math.floor(input.budgetTokens));
  const vaultContext = fitVaultContext(input, related, budget);
  // The passages get the room the titles leave, less the line that introduces them.
  const room = budget - estimateTokens(vaultContext) - estimateTokens(PASSAGES_INTRO);
  let packed = packInStableOrder(hits, vaultContext ? room : 0);
  let retrievalContext = withPassages(vaultContext, packed);
  // Estimates of the parts add up to at least the whole's, but a backtick in a title could pair
  // with one in a passage into a code span, which counts denser: pack again in less room until it fits.
  for (let excess = estimateTokens(retrievalContext) - budget; excess > 0; excess = estimateTokens(retrievalContext) - budget) {
    packed = packInStableOrder(hits, packed.budgetTokens - excess);
    retrievalContext = withPassages(vaultContext, packed);
  }
  return { vaultContext, retrievalContext, related, candidates, packed };
}
