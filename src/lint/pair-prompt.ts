/**
 * What the model is asked about one pair of pages, and how its reply is read: a structured request
 * of its own (one system message, the schema sent for the server to enforce), the layered repair
 * every model reply gets (think blocks, fences, the first balanced object, jsonrepair), then a
 * strict zod schema: a reply without the verdict's fields is unreadable, never "no contradiction,
 * not a duplicate". A passage the model quotes is kept only if it is really on that page, so a
 * finding always quotes both pages' own words.
 */
import * as z from "zod";
import type { StructuredAsk } from "../core/provider";
import type { Message } from "../core/schemas";
import { findJson } from "../core/json-repair";
import { truncateToTokens } from "../core/tokens";
import { stripProvenance } from "../core/provenance-strip";
import type { PageRecord } from "./snapshot";

/** Each page's text is cut to this many tokens, so a pair's prompt stays small whatever the pages. */
export const PAGE_TOKENS = 1500;
/**
 * The most output tokens a pair's reply may use: each request is capped at it (the backend's
 * output limit) and every estimate reserves it, so a request can cost more than its reservation
 * only by the error of the input estimate. A full reply (two quoted contradictions and a reason)
 * takes about 300.
 */
export const REPLY_TOKENS = 800;

/**
 * The verdict. `contradictions` and `duplicate` carry the answer, so they have no default: a
 * stray `{` or a reply that forgot them must not read as "checked, nothing found" (and be cached).
 * The reason only explains, and may be left out.
 */
export const PairReplySchema = z.object({
  contradictions: z.array(z.object({ first: z.string(), second: z.string() })),
  duplicate: z.boolean(),
  reason: z.string().optional(),
});
export type PairReply = z.infer<typeof PairReplySchema>;

const SYSTEM = [
  "You check two pages of a personal wiki against each other.",
  "Report only real contradictions: statements about the same thing that cannot both be true (different dates, numbers, names, facts).",
  "Differences in detail, emphasis or wording are not contradictions.",
  "Say whether the two pages are about the same subject and should be one page (duplicate).",
  'Reply with JSON only: {"contradictions": [{"first": "<a sentence copied exactly from page A>", "second": "<a sentence copied exactly from page B>"}], "duplicate": true|false, "reason": "<one sentence>"}.',
].join(" ");

/** Below this much of each page a verdict means nothing. */
const MIN_PAGE_TOKENS = 200;
/** The instructions, the titles, a retry's note and the chat template, with room to spare, in window tokens. */
const PAIR_OVERHEAD_TOKENS = 512;

/**
 * Each page's share of a model's context window (0: not known): the window less the reply and the
 * overhead, halved, and counted as the backends size their windows (chars/3, against chars/4 for
 * prose here), so both pages and the reply fit a small local window instead of being refused.
 */
export function pageTokensFor(maxContext: number): number {
  const share = Math.floor(((maxContext - REPLY_TOKENS - PAIR_OVERHEAD_TOKENS) / 2) * 0.75);
  // Too little of each page to judge by: left whole, so the backend refuses it, naming the window.
  return maxContext <= 0 || share < MIN_PAGE_TOKENS ? PAGE_TOKENS : Math.min(PAGE_TOKENS, share);
}

/**
 * The page as the model sees it: the body without Synapse's markers and attribution lines, nor
 * any other hidden comment, cut to `tokens`.
 */
export function pageText(page: PageRecord, tokens = PAGE_TOKENS): string {
  return truncateToTokens(stripProvenance(page.body).replace(/%%[\s\S]*?%%/g, "").replace(/\n{3,}/g, "\n\n").trim(), tokens);
}

function pairUser(a: PageRecord, b: PageRecord, retryNote?: string, pageTokens = PAGE_TOKENS): string {
  const user = `Page A: "${a.title}"\n\n${pageText(a, pageTokens)}\n\n---\n\nPage B: "${b.title}"\n\n${pageText(b, pageTokens)}`;
  return retryNote ? `${user}\n\n---\n\nYour previous reply could not be used: ${retryNote} Reply again with the JSON object only.` : user;
}

/** The pair as a structured request: one system message, the page texts, the verdict's schema. */
export function pairRequest(a: PageRecord, b: PageRecord, retryNote?: string, pageTokens = PAGE_TOKENS): StructuredAsk<PairReply> {
  return { system: SYSTEM, user: pairUser(a, b, retryNote, pageTokens), schema: PairReplySchema, name: "pair_verdict", what: "the pair verdict" };
}

/** The same request as chat messages, for a backend without structured requests (one system message too). */
export function pairMessages(a: PageRecord, b: PageRecord, retryNote?: string, pageTokens = PAGE_TOKENS): Message[] {
  return [
    { role: "system", content: SYSTEM },
    { role: "user", content: pairUser(a, b, retryNote, pageTokens) },
  ];
}

export type ReadReply = { readonly ok: true; readonly reply: PairReply } | { readonly ok: false; readonly problem: string };

export function readPairReply(text: string): ReadReply {
  const found = findJson(text);
  if (found.kind === "truncated") return { ok: false, problem: "the JSON object was cut off before it closed." };
  if (found.kind === "none") return { ok: false, problem: "it held no JSON object." };
  const parsed = PairReplySchema.safeParse(found.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, problem: `${issue ? `"${issue.path.join(".")}": ${issue.message}` : "it did not match the schema"}.` };
  }
  return { ok: true, reply: parsed.data };
}

function squash(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}

/** The passage as it stands on the page (the page's own words), or null when the model made it up. */
export function onPage(passage: string, page: PageRecord): string | null {
  const needle = squash(passage);
  if (needle.length < 8) return null;
  for (const line of page.body.split("\n")) {
    // No lookbehind in the split: older iOS WebViews lack it.
    for (const sentence of line.replace(/^[\s>*+-]+/, "").replace(/([.!?])\s+/g, "$1\n").split("\n")) {
      if (squash(sentence) === needle || (squash(sentence).includes(needle) && needle.length >= 20)) return sentence.trim();
    }
  }
  return squash(page.body).includes(needle) ? passage.trim() : null;
}
