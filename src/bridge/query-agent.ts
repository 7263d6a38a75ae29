/**
 * A question for the agent: read-only (Read, Glob, Grep) in the query's staging copy, its answer
 * streamed as `text` events as the model writes it. The confinement is the ingest's, with no
 * writable folder at all.
 */
import type { ParsedQueryRequest } from "../core/bridge-protocol";
import { runConfined, type AgentOutcome, type ConfinedRunOptions } from "./agent";
import { READ_ONLY_TOOLS } from "./path-guard";
import { querySystemPrompt, queryTaskPrompt } from "./prompt";

export interface QueryAgentOptions extends ConfinedRunOptions {
  /** Real path of the query's staging copy. */
  readonly root: string;
  readonly request: ParsedQueryRequest;
}

export function runQueryAgent(options: QueryAgentOptions): Promise<AgentOutcome> {
  const { root, request, emit } = options;
  return runConfined(options, {
    roots: { staging: root, wiki: null },
    tools: READ_ONLY_TOOLS,
    systemPrompt: querySystemPrompt(request.wikiFolder, request.wikiLanguage),
    prompt: queryTaskPrompt(request.messages, request.retrievalContext),
    maxTurns: request.maxTurns,
    maxBudgetUsd: request.maxBudgetUsd,
    model: request.model ?? null,
    onText: (text) => emit({ type: "text", text }),
  });
}
