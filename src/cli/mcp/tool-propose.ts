/**
 * `propose`: the one tool that changes the wiki, and it does not change it. It plans the change
 * (an ingest of a note, an answer saved as a page), stages it as a proposal in the state folder and
 * says so; the user accepts or refuses it in Obsidian's review or with `synapse review`. Only with
 * `--allow-writes` is the proposal applied at once — through the same write path, journaled and
 * undoable like any other run.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import { SynapseError } from "../../core/errors";
import { acceptProposal } from "../../proposals/accept";
import { proposeLintFix } from "../../proposals/lint-fix-proposal";
import { proposeAnswer, proposeIngest } from "../../proposals/propose";
import type { Proposal } from "../../proposals/proposal";
import { MAX_QUESTION_CHARS } from "../../query/ask";
import { MAX_FIX_ID_CHARS, MAX_PATH_CHARS } from "./limits";
import type { McpSession } from "./session";
import { answer } from "./tool-ask";
import { guarded } from "./tool-result";

export const ProposeArgs = {
  action: z
    .enum(["ingest", "save_answer", "lint_fix"])
    .describe('"ingest": write wiki pages from a note; "save_answer": file the answer to a question as a synthesis page; "lint_fix": apply one of the fixes the lint tool lists'),
  note: z.string().min(1).max(MAX_PATH_CHARS).optional().describe("for ingest: the note's path inside the vault"),
  force: z.boolean().optional().describe("for ingest: propose it even when the note is already up to date"),
  question: z.string().trim().min(1).max(MAX_QUESTION_CHARS).optional().describe("for save_answer: the question whose answer is saved"),
  fix: z.string().trim().min(1).max(MAX_FIX_ID_CHARS).optional().describe("for lint_fix: the fix's id, as the lint tool lists it"),
};
type ProposeInput = { action: "ingest" | "save_answer" | "lint_fix"; note?: string | undefined; force?: boolean | undefined; question?: string | undefined; fix?: string | undefined };

async function stage(session: McpSession, args: ProposeInput, signal: AbortSignal): Promise<Proposal> {
  const meta = { proposedBy: session.client, now: Date.now() };
  if (args.action === "save_answer") {
    if (args.question === undefined || args.note !== undefined || args.force !== undefined || args.fix !== undefined) throw new SynapseError("input", "save_answer takes a question (and no note, force or fix).");
    const report = await answer(session, args.question, undefined, signal);
    const settings = await session.settings();
    return proposeAnswer(session.vault, settings.wikiFolder, session.proposals, report, meta);
  }
  if (args.action === "lint_fix") {
    if (args.fix === undefined || args.note !== undefined || args.question !== undefined || args.force !== undefined) throw new SynapseError("input", "lint_fix takes the fix's id as the lint tool lists it (and no note, question or force).");
    const settings = await session.admitContent();
    await session.recover(settings, "read");
    return proposeLintFix({ vault: session.vault, settings, store: session.write.store, write: session.write }, session.proposals, args.fix, { ...meta, signal });
  }
  if (args.note === undefined || args.question !== undefined || args.fix !== undefined) throw new SynapseError("input", "ingest takes the note's path (and no question or fix).");
  const base = await session.admitContent();
  await session.recover(base, "read");
  const { provider, settings } = session.provider(base, "ingest");
  const opened = await session.index(settings, signal);
  const { report, proposal } = await proposeIngest(
    { vault: session.vault, provider, settings, write: session.write, retriever: opened.index, catalog: opened.catalog },
    session.proposals,
    args.note,
    { ...meta, ...(args.force ? { force: true } : {}), signal },
  );
  if (report.error) throw new SynapseError(report.error.kind, report.error.message);
  if (report.upToDate) throw new SynapseError("input", `"${args.note}" is already ingested and unchanged since; pass force: true to propose it again.`);
  if (!report.converged) throw new SynapseError("unavailable", `The ingest did not produce valid pages (${report.stopReason}${report.issues[0] ? `: ${report.issues[0]}` : ""}); nothing was proposed.`);
  if (!proposal) throw new SynapseError("input", `Ingesting "${args.note}" would change nothing in the wiki; nothing was proposed.`);
  return proposal;
}

export function registerPropose(server: McpServer, session: McpSession): void {
  const writes = session.options.allowWrites;
  server.registerTool(
    "propose",
    {
      title: "Propose a change to the wiki",
      description: writes
        ? "Ingests a note into the wiki, saves an answer as a page, or applies a lint fix. This server was started with --allow-writes: the change is applied at once (journaled; the user can undo it)."
        : "Proposes to ingest a note into the wiki, to save an answer as a page, or to apply a lint fix (by the id the lint tool gives it). Nothing is written: the change waits for the user to accept or refuse it (in Obsidian's review, or with `synapse review`). Returns the proposal's id and the files it would change.",
      inputSchema: ProposeArgs,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args, extra) =>
      guarded(async () => {
        const proposal = await stage(session, args, extra.signal);
        const changes = proposal.changes.map((c) => ({ path: c.path, action: c.action }));
        if (!writes) {
          return {
            status: "staged",
            id: proposal.id,
            title: proposal.title,
            changes,
            next: `Nothing is written yet. The user reviews it with: synapse review --vault <vault> show ${proposal.id}, then accept or refuse`,
          };
        }
        const settings = await session.settings();
        await session.recover(settings, "write");
        const opened = await session.index(settings, extra.signal);
        const outcome = await acceptProposal({ vault: session.vault, settings, write: session.write, retriever: opened.index, catalog: opened.catalog }, session.proposals, proposal);
        return { status: outcome.status, id: proposal.id, title: proposal.title, changes: outcome.changes, next: "Applied as one run; the user can take it back with synapse undo." };
      }),
  );
}
