/**
 * A question for the agent: read-only (Read, Glob, Grep) in the query's staging copy, its answer
 * streamed as `text` events as the model writes it. The confinement is the ingest's, with no
 * writable folder at all. The files its Read calls returned are collected, so the client can check
 * citations of pages the agent found itself against what it actually read.
 */
import { MAX_AGENT_READ_CHARS, MAX_AGENT_READS, type AgentRead, type ParsedQueryRequest } from "../core/bridge-protocol";
import { runConfined, type AgentOutcome, type ConfinedRunOptions } from "./agent";
import { READ_ONLY_TOOLS } from "./path-guard";
import { querySystemPrompt, queryTaskPrompt } from "./prompt";

export interface QueryAgentOptions extends ConfinedRunOptions {
  /** Real path of the query's staging copy. */
  readonly root: string;
  /** Vault-relative paths of the files staged: only these can be reported as read. */
  readonly staged: readonly string[];
  readonly request: ParsedQueryRequest;
}

export interface QueryOutcome extends AgentOutcome {
  /** Staged files the agent read, each once, in the order first read. */
  readonly read: readonly AgentRead[];
}

/**
 * The vault-relative path of a file the agent read, as shown relative to the staging folder:
 * "./wiki/x.md", "wiki//x.md" → "wiki/x.md". Null for anything else: a path still absolute (it was
 * outside the staging folder), a Windows path, or one that climbs out.
 */
export function stagedPath(shown: string): string | null {
  if (shown.startsWith("/") || /^[A-Za-z]:/.test(shown) || shown.includes("\\")) return null;
  const parts: string[] = [];
  for (const part of shown.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") return null;
    parts.push(part);
  }
  return parts.join("/");
}

export async function runQueryAgent(options: QueryAgentOptions): Promise<QueryOutcome> {
  const { root, request, emit } = options;
  const staged = new Set(options.staged);
  const read = new Map<string, string>();
  const outcome = await runConfined(options, {
    roots: { staging: root, wiki: null },
    tools: READ_ONLY_TOOLS,
    systemPrompt: querySystemPrompt(request.wikiFolder, request.wikiLanguage),
    prompt: queryTaskPrompt(request.messages, request.retrievalContext),
    maxTurns: request.maxTurns,
    maxBudgetUsd: request.maxBudgetUsd,
    ...(request.maxOutputTokens !== undefined ? { maxOutputTokens: request.maxOutputTokens } : {}),
    model: request.model ?? null,
    onText: (text) => emit({ type: "text", text }),
    onRead: (shown, text) => {
      const path = stagedPath(shown);
      // A path outside the staging copy (shown absolute) or not staged is no page of the vault.
      if (path === null || !staged.has(path) || read.size >= MAX_AGENT_READS) return;
      // Several reads of one file (a long page read in parts): keep them together, up to the cap.
      read.set(path, `${read.get(path) ?? ""}${read.has(path) ? "\n" : ""}${text}`.slice(0, MAX_AGENT_READ_CHARS));
    },
  });
  return { ...outcome, read: [...read].map(([path, text]) => ({ path, text })) };
}
