/**
 * A proposal: a change to the wiki that an agent asked for (through `synapse mcp`) and that waits
 * in the state folder until the user accepts or refuses it. It holds what is needed to plan the
 * change again, without a model, against the vault as it is when accepted — the model's pages for
 * an ingest, the answer and its citations for a saved answer, the id of a lint fix — and a preview of the changes as they looked when proposed, for listing and review.
 */
import * as z from "zod";
import { AnalysisSchema, WikiPageSchema } from "../core/schemas";

/** Proposals live under this StateStore prefix, one file each. */
export const PROPOSALS_PREFIX = "proposals";

/** One file the proposal would change, as it looked when proposed. */
export const ProposedChangeSchema = z.object({
  path: z.string(),
  action: z.string(),
  /** A unified diff, cut to a bounded length (`truncated` says so). */
  diff: z.string(),
  truncated: z.boolean(),
});
export type ProposedChange = z.infer<typeof ProposedChangeSchema>;

/** What an ingest's model produced, so accepting it plans the same pages without calling a model. */
export const IngestPayloadSchema = z.object({
  kind: z.literal("ingest"),
  notePath: z.string(),
  /** The analysis, null for an agentic backend (it writes pages without one). */
  analysis: AnalysisSchema.nullable(),
  pages: z.array(WikiPageSchema),
  /** The backend that wrote them, named in log.md when the proposal is applied. */
  provider: z.object({ name: z.string(), model: z.string().nullable(), agentic: z.boolean() }),
});

const CitationSchema = z.object({
  page: z.string(),
  path: z.string().nullable(),
  verified: z.boolean(),
  reason: z.string(),
  problem: z.enum(["not-in-context", "no-such-passage", "page-gone"]).nullable(),
});
const CitedPassageSchema = z.object({ path: z.string(), kind: z.enum(["wiki", "note"]) });

/** An answer to file back as a synthesis page, with the passages its citations were checked against. */
export const AnswerPayloadSchema = z.object({
  kind: z.literal("answer"),
  question: z.string(),
  answer: z.string(),
  citations: z.array(CitationSchema),
  passages: z.array(CitedPassageSchema),
  consulted: z.array(CitedPassageSchema),
});

/**
 * One of lint's fixes, named by its id (`lint/fix-id.ts`). Accepting runs the checks again and
 * finds the fix by that id, so what is applied is what lint finds then, never what the agent said;
 * the rest is what lint reported when it was proposed, for the list and the review.
 */
export const LintFixPayloadSchema = z.object({
  kind: z.literal("lint-fix"),
  fixId: z.string(),
  check: z.string(),
  page: z.string(),
  message: z.string(),
  fixKind: z.string(),
  label: z.string(),
});

export const ProposalPayloadSchema = z.discriminatedUnion("kind", [IngestPayloadSchema, AnswerPayloadSchema, LintFixPayloadSchema]);
export type ProposalPayload = z.infer<typeof ProposalPayloadSchema>;
export type ProposalKind = ProposalPayload["kind"];

export const ProposalSchema = z.object({
  version: z.literal(1),
  id: z.string().regex(/^[a-z0-9-]{1,64}$/),
  /** What the review lists: "Ingest notes/Ada.md", "Save answer: …". */
  title: z.string(),
  createdAt: z.string(),
  /** Who asked: the MCP client's name and version as it introduced itself, or null. */
  proposedBy: z.string().nullable(),
  payload: ProposalPayloadSchema,
  changes: z.array(ProposedChangeSchema),
});
export type Proposal = z.infer<typeof ProposalSchema>;
