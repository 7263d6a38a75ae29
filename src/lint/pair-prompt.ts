/**
 * What the model is asked about one pair of pages, and how its reply is read: the layered repair
 * every model reply gets (think blocks, fences, the first balanced object, jsonrepair), then the
 * zod schema. A passage the model quotes is kept only if it is really on that page, so a finding
 * always quotes both pages' own words.
 */
import * as z from "zod";
import type { Message } from "../core/schemas";
import { findJson } from "../providers/json-repair";
import { truncateToTokens } from "../retrieval/tokens";
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

export const PairReplySchema = z.looseObject({
  contradictions: z
    .array(z.looseObject({ first: z.string(), second: z.string() }))
    .nullish()
    .transform((v) => v ?? []),
  duplicate: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  reason: z
    .string()
    .nullish()
    .transform((v) => v ?? ""),
});
export type PairReply = z.infer<typeof PairReplySchema>;

const SYSTEM = [
  "You check two pages of a personal wiki against each other.",
  "Report only real contradictions: statements about the same thing that cannot both be true (different dates, numbers, names, facts).",
  "Differences in detail, emphasis or wording are not contradictions.",
  "Say whether the two pages are about the same subject and should be one page (duplicate).",
  'Reply with JSON only: {"contradictions": [{"first": "<a sentence copied exactly from page A>", "second": "<a sentence copied exactly from page B>"}], "duplicate": true|false, "reason": "<one sentence>"}.',
].join(" ");

/** The page as the model sees it: the body without Synapse's hidden markers, cut to PAGE_TOKENS. */
export function pageText(page: PageRecord): string {
  return truncateToTokens(page.body.replace(/%%[\s\S]*?%%/g, "").replace(/\n{3,}/g, "\n\n").trim(), PAGE_TOKENS);
}

export function pairMessages(a: PageRecord, b: PageRecord, retryNote?: string): Message[] {
  const user = `Page A: "${a.title}"\n\n${pageText(a)}\n\n---\n\nPage B: "${b.title}"\n\n${pageText(b)}`;
  const messages: Message[] = [
    { role: "system", content: SYSTEM },
    { role: "user", content: user },
  ];
  if (retryNote) messages.push({ role: "user", content: `Your previous reply could not be used: ${retryNote} Reply again with the JSON object only.` });
  return messages;
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
