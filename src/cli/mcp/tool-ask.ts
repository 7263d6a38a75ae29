/**
 * `ask`: a question answered from the wiki by the vault's query backend, with its citations
 * checked against the passages sent; "not in your wiki" when nothing relevant is there.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import { SynapseError } from "../../core/errors";
import { askWiki, MAX_QUESTION_CHARS, type AskReport } from "../../query/ask";
import { MAX_ANSWER_CHARS } from "./limits";
import type { McpSession } from "./session";
import { guarded } from "./tool-result";

export const AskArgs = {
  question: z.string().trim().min(1, "Ask a question.").max(MAX_QUESTION_CHARS, `The question is over ${MAX_QUESTION_CHARS} characters.`),
  scope: z.enum(["wiki", "notes", "all"]).optional().describe('where the answer may come from: "wiki", "notes" or "all" (default: the vault\'s "Ask from" setting)'),
};

/** Runs the question; a failed answer (the backend unreachable, the perimeter) is thrown as its error. */
export async function answer(session: McpSession, question: string, scope: "wiki" | "notes" | "all" | undefined, signal: AbortSignal): Promise<AskReport> {
  const base = await session.admitContent();
  await session.recover(base, "read");
  const { provider, settings } = session.provider(base, "query");
  const { index } = await session.index(settings, signal);
  const report = await askWiki({ vault: session.vault, provider, retriever: index, settings }, { question, ...(scope ? { scope } : {}), signal });
  if (report.error) throw new SynapseError(report.error.kind, report.error.message);
  return report;
}

export function askResult(report: AskReport): Record<string, unknown> {
  const cut = report.answer.length > MAX_ANSWER_CHARS;
  return {
    answer: cut ? report.answer.slice(0, MAX_ANSWER_CHARS) : report.answer,
    truncated: cut,
    /** "vault": answered from the wiki; "none": not in the wiki (no model was asked). */
    grounding: report.grounding,
    citations: report.citations.map((c) => ({ page: c.page, path: c.path, verified: c.verified, reason: c.verified ? null : c.reason })),
    warning: report.unverifiedWarning,
    provider: { name: report.provider.name, model: report.provider.model, isLocal: report.provider.isLocal },
  };
}

export function registerAsk(server: McpServer, session: McpSession): void {
  server.registerTool(
    "ask",
    {
      title: "Ask the wiki",
      description:
        "Answers a question from the Synapse wiki with citations, each checked against the pages it was given (verified: true). When the wiki holds nothing relevant the answer says so and grounding is \"none\".",
      inputSchema: AskArgs,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) => guarded(async () => askResult(await answer(session, args.question, args.scope, extra.signal))),
  );
}
