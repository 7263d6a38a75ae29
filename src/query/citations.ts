/**
 * Checking an answer's citations against what was actually sent. A citation is verified only when
 * it names a passage of the context given to the model and that page still exists; anything else —
 * a page from the model's memory, a page that does not exist, a number past the context — is
 * reported as unverified, never dropped or silently trusted. An agent reads pages itself: for it,
 * the context is also what it read, so a `[[Page]]` it read (`consulted`) verifies too; numbers
 * only ever name the numbered passages sent.
 */
import { wikilinkTargets, linkBasename } from "../core/wikilinks";
import { stripCode } from "../core/markdown";
import type { ContextPassage } from "./context";

export interface Citation {
  /** The page as the answer named it (a wikilink target, or the title behind a number). */
  readonly page: string;
  /** The vault path of the page it names in the context, or null when it names none. */
  readonly path: string | null;
  readonly verified: boolean;
  /** Why it is unverified, one sentence; empty when verified. */
  readonly reason: string;
  /**
   * Why it is unverified, for a program: the page was not among the passages sent (from the
   * model's memory, or a page kept out of its reach), the number names no passage sent, or the
   * page sent is gone from the vault since. Null when verified.
   */
  readonly problem: CitationProblem | null;
}

export type CitationProblem = "not-in-context" | "no-such-passage" | "page-gone";

/** A page the backend read itself while answering (an agent's Read), not among the numbered passages. */
export interface ConsultedPassage {
  readonly path: string;
  /** The file name without `.md`, as a wikilink names it. */
  readonly title: string;
  /** The start of what the backend read. */
  readonly text: string;
  readonly kind: "wiki" | "note";
}

/** Titles, file names and paths compare without case, accents composed the same way. */
export function citationKey(text: string): string {
  return text.normalize("NFC").trim().replace(/\.md$/i, "").toLocaleLowerCase();
}

/** Numbered references: "[2]" or "[^2]", not a wikilink's "[[", nor a Markdown link's "[text](". */
const NUMBERED = /(?<!\[)\[\^?(\d{1,3})\](?![[(:])/g;

export function checkCitations(
  answer: string,
  passages: readonly ContextPassage[],
  pageExists: (path: string) => boolean,
  consulted: readonly ConsultedPassage[] = [],
): Citation[] {
  const byKey = new Map<string, { readonly path: string }>();
  // The passages sent come last, so that they win over a read of the same page.
  for (const p of [...consulted, ...passages]) {
    for (const key of [p.title, linkBasename(p.path), p.path]) byKey.set(citationKey(key), p);
  }
  const prose = stripCode(answer);
  const out = new Map<string, Citation>();
  for (const target of wikilinkTargets(prose)) {
    const found = byKey.get(citationKey(target)) ?? byKey.get(citationKey(linkBasename(target)));
    out.set(citationKey(target), judge(target, found, pageExists));
  }
  for (const match of prose.matchAll(NUMBERED)) {
    const n = Number(match[1]);
    const found = passages.find((p) => p.ref === n);
    const page = found ? found.title : `[${n}]`;
    if (out.has(citationKey(page))) continue;
    out.set(citationKey(page), found ? judge(page, found, pageExists) : { page, path: null, verified: false, reason: `There is no passage ${n} in the context that was sent.`, problem: "no-such-passage" });
  }
  return [...out.values()];
}

function judge(page: string, found: { readonly path: string } | undefined, pageExists: (path: string) => boolean): Citation {
  if (!found) return { page, path: null, verified: false, reason: "This page was not among the passages sent to the model.", problem: "not-in-context" };
  if (!pageExists(found.path)) return { page, path: found.path, verified: false, reason: "This page no longer exists in the vault.", problem: "page-gone" };
  return { page, path: found.path, verified: true, reason: "", problem: null };
}

/**
 * The warning an answer from the vault carries when not one of its citations checks out — it cites
 * nothing, or only what was never sent — so it is never taken for a grounded answer. Null when
 * some citation is verified, or when the answer did not come from the vault's context at all
 * ("not in your wiki", a labelled general answer, a failure).
 */
export function unverifiedAnswerWarning(grounding: "vault" | "none" | "general", citations: readonly Citation[], failed: boolean): string | null {
  if (grounding !== "vault" || failed || citations.some((c) => c.verified)) return null;
  return citations.length === 0
    ? "This answer cites no page of your wiki, so nothing in it could be checked against your vault; treat it as unsupported."
    : "None of this answer's citations could be verified against the passages sent; treat it as unsupported.";
}
