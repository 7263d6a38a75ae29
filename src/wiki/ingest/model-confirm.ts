/**
 * The confirm step when the backend is a language model: a shortlisted page that is similar but
 * not the same title (and not told apart by a distinguishing mark, which never gets this far) is
 * the new page's subject only if the model says so, in one small structured request — both titles
 * and both openings, a strict reply schema whose answer field has no default. A reply that cannot
 * be read, a refusal or a failed request means "not the same" (a missed match leaves a duplicate
 * lint can report; a wrong one mixes two subjects). Readable verdicts are kept in MatchVerdicts, so
 * the same pair is asked once; the user's own verdict (a match refused at review) is never asked.
 */
import * as z from "zod";
import { toSynapseError } from "../../core/errors";
import { plainText } from "../../core/plain-text";
import type { InferenceProvider, StructuredAsk } from "../../core/provider";
import { throwIfStopped, type RunContext } from "../../core/run-context";
import type { WikiPage } from "../../core/schemas";
import { looselySame, thresholdConfirm, type ConfirmMatch, type Confirmation } from "./find-existing";
import type { PageRecord } from "../identity";
import type { MatchVerdicts } from "./match-verdicts";
import { stripProvenance } from "../../core/provenance-strip";

/** Each page's opening is cut to this many characters: the request stays small whatever the pages. */
export const OPENING_CHARS = 600;
/** The reply is a boolean and a sentence. */
export const CONFIRM_REPLY_TOKENS = 200;

/** `same` carries the answer: no default, so a reply that forgot it is unreadable, never "no". */
export const SameSubjectReplySchema = z.object({ same: z.boolean(), reason: z.string().optional() });
export type SameSubjectReply = z.infer<typeof SameSubjectReplySchema>;

const SYSTEM = [
  "You decide whether two pages of a personal wiki are about the same subject and should be one page.",
  "Different editions, versions, numbers, sequels, people with the same name, or related but separate things are different subjects.",
  'Reply with JSON only: {"same": true|false, "reason": "<one short sentence>"}.',
].join(" ");

function opening(markdown: string): string {
  const text = plainText(stripProvenance(markdown).replace(/%%[\s\S]*?%%/g, "")).replace(/\s+/g, " ").trim();
  return text.length > OPENING_CHARS ? `${text.slice(0, OPENING_CHARS)}…` : text;
}

export function sameSubjectRequest(page: WikiPage, candidate: PageRecord): StructuredAsk<SameSubjectReply> {
  const user = `Page A: "${page.title}"\n\n${opening(page.content)}\n\n---\n\nPage B: "${candidate.title}"\n\n${opening(candidate.body)}`;
  return { system: SYSTEM, user, schema: SameSubjectReplySchema, name: "same_subject", what: "the same-subject verdict" };
}

export interface ModelConfirmDeps {
  /** The provider behind the perimeter. */
  readonly provider: InferenceProvider;
  readonly run: RunContext;
  readonly verdicts: MatchVerdicts;
}

function modelReason(same: boolean, reason: string | undefined): string {
  const why = (reason ?? "").trim().replace(/\.$/, "");
  return `the model judged them ${same ? "the same subject" : "different subjects"}${why ? `: ${why}` : ""}`;
}

export function modelConfirm({ provider, run, verdicts }: ModelConfirmDeps): ConfirmMatch {
  const ask = provider.ask?.bind(provider);
  return async (page, candidate, similarity): Promise<boolean | Confirmation> => {
    // Not ambiguous: only accents, case, plural or spacing differ.
    if (looselySame(page.title, candidate.title)) return true;
    const known = verdicts.get(page.title, candidate.title);
    if (known) return { same: known.same, reason: known.reason };
    // A backend that cannot hold a reply to a schema is judged as the Offline one is.
    if (!ask) return thresholdConfirm(page, candidate, similarity);
    try {
      const reply = await ask(sameSubjectRequest(page, candidate), { ...run, maxOutputTokens: CONFIRM_REPLY_TOKENS });
      throwIfStopped(run);
      const reason = modelReason(reply.same, reply.reason);
      verdicts.set(page.title, candidate.title, { same: reply.same, by: "model", reason });
      return { same: reply.same, reason };
    } catch (thrown) {
      const error = toSynapseError(thrown);
      if (error.kind === "cancelled" || run.signal.aborted) throw error;
      // Unreadable, refused or failed: not the same, and not remembered (the next ingest may ask again).
      return false;
    }
  };
}
