/**
 * One agent run with the Claude Agent SDK, confined to a staging folder. The SDK is loaded lazily so
 * that a bridge without it still starts and its doctor can say what is missing.
 *
 * Confinement, in layers: the model is offered only the job's tools (`tools`: Read/Write/Edit/Glob/
 * Grep for an ingest, Read/Glob/Grep for a question), other
 * tools are removed again (`disallowedTools`), and every call is checked twice against the staging
 * folder — by a PreToolUse hook (runs for every call, even ones the SDK would auto-approve) and by
 * `canUseTool` (permission mode "default" asks it for every write and every read outside the cwd).
 */
import type { HookInput, Options, PermissionResult, SDKMessage, SDKResultMessage } from "@anthropic-ai/claude-agent-sdk";
import { isAbsolute, relative, sep } from "node:path";
import { AGENT_TOOLS, DISALLOWED_TOOLS, checkToolCall, type GuardRoots, type Verdict } from "./path-guard";
import type { AgentUsage, BridgeEvent, Denial, ParsedIngestRequest } from "../core/bridge-protocol";
import { systemPrompt, taskPrompt } from "./prompt";
import { readResults } from "./read-results";
import type { Staging } from "./staging";

/** The SDK's `query()`, as far as the bridge uses it (tests substitute a scripted one). */
export type QueryFunction = (params: { prompt: string; options?: Options }) => AsyncIterable<SDKMessage>;

export interface AgentRunOptions {
  readonly staging: Staging;
  readonly request: ParsedIngestRequest;
  /** The agent's whole environment (see agent-env.ts). */
  readonly env: Record<string, string>;
  readonly signal: AbortSignal;
  readonly emit: (event: BridgeEvent) => void;
  readonly query: QueryFunction;
  /** A native binary other than the one the SDK bundles. */
  readonly pathToClaudeCodeExecutable?: string;
  /** Lines the native binary writes to stderr (debugging only). */
  readonly stderr?: (line: string) => void;
}

export interface AgentOutcome {
  readonly ok: boolean;
  readonly subtype: string;
  readonly message: string;
  readonly numTurns: number;
  readonly usage: AgentUsage;
  readonly model: string | null;
  readonly denied: Denial[];
  /** The run was stopped by the abort signal. */
  readonly aborted: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A path the agent named, shown relative to the staging folder (never the bridge's temp path). */
function displayTarget(target: string | null, root: string): string | null {
  if (target === null || !isAbsolute(target)) return target;
  const rel = relative(root, target);
  return rel.startsWith("..") || isAbsolute(rel) ? target : rel.split(sep).join("/");
}

/** Tracks denials once per tool call, whichever layer refused it. */
class DenialLog {
  private readonly byCall = new Map<string, Denial>();
  constructor(private readonly emit: (event: BridgeEvent) => void) {}

  add(toolUseId: string, denial: Denial): void {
    if (this.byCall.has(toolUseId)) return;
    this.byCall.set(toolUseId, denial);
    this.emit({ type: "denied", denial });
  }

  has(toolUseId: string): boolean {
    return this.byCall.has(toolUseId);
  }

  list(): Denial[] {
    return [...this.byCall.values()];
  }
}

function usageOf(usage: unknown): { input: number; output: number } {
  if (!isRecord(usage)) return { input: 0, output: 0 };
  const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);
  return {
    input: n(usage.input_tokens) + n(usage.cache_creation_input_tokens) + n(usage.cache_read_input_tokens),
    output: n(usage.output_tokens),
  };
}

/** The ingest: the agent may write pages in the staged wiki folder. */
export function runAgent(options: AgentRunOptions): Promise<AgentOutcome> {
  const { staging, request } = options;
  return runConfined(options, {
    roots: { staging: staging.root, wiki: staging.wikiRoot },
    tools: AGENT_TOOLS,
    systemPrompt: systemPrompt(request.wikiFolder, request.wikiLanguage),
    prompt: taskPrompt(request.notePath, request.wikiFolder, request.retrievalContext, request.previousPages.length > 0),
    maxTurns: request.maxTurns,
    maxBudgetUsd: request.maxBudgetUsd,
    model: request.model ?? null,
  });
}

/** What differs between the agent's jobs (an ingest, a question); the confinement does not. */
export interface ConfinedJob {
  /** `roots.wiki` null: a read-only run. */
  readonly roots: GuardRoots;
  readonly tools: readonly string[];
  readonly systemPrompt: string;
  readonly prompt: string;
  readonly maxTurns: number;
  readonly maxBudgetUsd: number;
  /** The most output tokens each of the agent's model requests may use; absent, the agent's own default. */
  readonly maxOutputTokens?: number;
  readonly model: string | null;
  /** Receives the model's text as it streams (the SDK's partial messages are asked for only then). */
  readonly onText?: (text: string) => void;
  /** Receives each file a Read call returned: the path as shown (relative to the staging folder) and the text read. */
  readonly onRead?: (path: string, text: string) => void;
}

export type ConfinedRunOptions = Omit<AgentRunOptions, "staging" | "request">;

/** One confined agent run in `job.roots.staging`. */
export async function runConfined(options: ConfinedRunOptions, job: ConfinedJob): Promise<AgentOutcome> {
  const { emit } = options;
  const roots = job.roots;
  const staging = { root: roots.staging };
  const denials = new DenialLog(emit);
  const check = (tool: string, input: unknown, toolUseId: string): Verdict => {
    const verdict = checkToolCall(tool, isRecord(input) ? input : {}, roots);
    if (!verdict.allowed) {
      denials.add(toolUseId, { tool, target: displayTarget(verdict.target, staging.root), reason: verdict.reason });
    }
    return verdict;
  };

  const preToolUse = (input: HookInput, toolUseId: string | undefined) => {
    if (input.hook_event_name !== "PreToolUse") return Promise.resolve({});
    const verdict = check(input.tool_name, input.tool_input, toolUseId ?? input.tool_use_id);
    if (verdict.allowed) return Promise.resolve({});
    return Promise.resolve({
      hookSpecificOutput: { hookEventName: "PreToolUse" as const, permissionDecision: "deny" as const, permissionDecisionReason: verdict.reason },
    });
  };
  const postToolUse = (input: HookInput) => {
    if (input.hook_event_name === "PostToolUse" && (input.tool_name === "Write" || input.tool_name === "Edit")) {
      const target = isRecord(input.tool_input) && typeof input.tool_input.file_path === "string" ? input.tool_input.file_path : null;
      const shown = displayTarget(target, staging.root);
      if (shown) emit({ type: "file", path: shown });
    }
    return Promise.resolve({});
  };
  const canUseTool = (tool: string, input: Record<string, unknown>, ctx: { toolUseID: string }): Promise<PermissionResult> => {
    const verdict = check(tool, input, ctx.toolUseID);
    return Promise.resolve(verdict.allowed ? { behavior: "allow", updatedInput: input } : { behavior: "deny", message: verdict.reason });
  };

  const abortController = new AbortController();
  const onAbort = () => abortController.abort();
  if (options.signal.aborted) abortController.abort();
  else options.signal.addEventListener("abort", onAbort, { once: true });

  const sdkOptions: Options = {
    cwd: staging.root,
    tools: [...job.tools],
    disallowedTools: DISALLOWED_TOOLS,
    permissionMode: "default",
    canUseTool,
    hooks: {
      PreToolUse: [{ hooks: [preToolUse] }],
      PostToolUse: [{ hooks: [postToolUse] }],
    },
    settingSources: [],
    persistSession: false,
    strictMcpConfig: true,
    maxTurns: job.maxTurns,
    maxBudgetUsd: job.maxBudgetUsd,
    systemPrompt: job.systemPrompt,
    abortController,
    // Claude Code reads its per-request output limit from the environment.
    env: job.maxOutputTokens !== undefined ? { ...options.env, CLAUDE_CODE_MAX_OUTPUT_TOKENS: String(job.maxOutputTokens) } : options.env,
    ...(job.model ? { model: job.model } : {}),
    ...(job.onText ? { includePartialMessages: true } : {}),
    ...(options.pathToClaudeCodeExecutable ? { pathToClaudeCodeExecutable: options.pathToClaudeCodeExecutable } : {}),
    ...(options.stderr ? { stderr: options.stderr } : {}),
  };

  const prompt = job.prompt;
  const perMessage = new Map<string, { input: number; output: number }>();
  /** Read calls the model made (tool_use id → the file named), until their results come back. */
  const readCalls = new Map<string, string>();
  let model: string | null = job.model;
  let result: SDKResultMessage | null = null;
  let thrown: unknown = null;

  const handle = (message: SDKMessage) => {
    if (message.type === "system" && message.subtype === "init") {
      model = message.model;
    } else if (message.type === "assistant") {
      for (const block of message.message.content) {
        if (block.type !== "tool_use") continue;
        const input = isRecord(block.input) ? block.input : {};
        const target = [input.file_path, input.path, input.pattern].find((v): v is string => typeof v === "string") ?? null;
        emit({ type: "tool", tool: block.name, target: displayTarget(target, staging.root) });
        if (block.name === "Read" && typeof input.file_path === "string") readCalls.set(block.id, input.file_path);
        // A tool that was never offered is refused by the SDK without asking us; record it too.
        if (!job.tools.includes(block.name)) {
          denials.add(block.id, { tool: block.name, target: null, reason: `the ${block.name} tool is not available` });
        }
      }
      const id = message.message.id;
      perMessage.set(id, usageOf(message.message.usage));
      let input = 0;
      let output = 0;
      for (const u of perMessage.values()) {
        input += u.input;
        output += u.output;
      }
      emit({ type: "usage", usage: { inputTokens: input, outputTokens: output, costUsd: null } });
    } else if (message.type === "user") {
      if (job.onRead) for (const read of readResults(message, readCalls)) job.onRead(displayTarget(read.path, staging.root) ?? read.path, read.text);
    } else if (message.type === "stream_event") {
      const event = message.event;
      if (job.onText && event.type === "content_block_delta" && event.delta.type === "text_delta") job.onText(event.delta.text);
    } else if (message.type === "result") {
      result = message;
    }
  };

  try {
    // On an error result the SDK yields the result and then throws: keep the result, note the throw.
    for await (const message of options.query({ prompt, options: sdkOptions })) handle(message);
  } catch (error) {
    thrown = error;
  } finally {
    options.signal.removeEventListener("abort", onAbort);
  }

  const final = result as SDKResultMessage | null;
  if (final) {
    for (const d of final.permission_denials) {
      if (denials.has(d.tool_use_id)) continue;
      const target = [d.tool_input.file_path, d.tool_input.path, d.tool_input.pattern].find((v): v is string => typeof v === "string") ?? null;
      denials.add(d.tool_use_id, { tool: d.tool_name, target: displayTarget(target, staging.root), reason: "refused by the agent's permission rules" });
    }
  }
  const aborted = options.signal.aborted;
  if (!final) {
    const message = aborted ? "The run was cancelled." : thrown instanceof Error ? thrown.message : "The agent ended without a result.";
    const usage = [...perMessage.values()].reduce((a, u) => ({ input: a.input + u.input, output: a.output + u.output }), { input: 0, output: 0 });
    return {
      ok: false,
      subtype: aborted ? "cancelled" : "error_during_execution",
      message,
      numTurns: 0,
      usage: { inputTokens: usage.input, outputTokens: usage.output, costUsd: null },
      model,
      denied: denials.list(),
      aborted,
    };
  }
  const totals = usageOf(final.usage);
  const message = final.subtype === "success" ? final.result : final.errors.join("; ") || final.subtype;
  return {
    ok: final.subtype === "success" && !final.is_error && !aborted,
    subtype: aborted ? "cancelled" : final.subtype,
    message,
    numTurns: final.num_turns,
    usage: { inputTokens: totals.input, outputTokens: totals.output, costUsd: final.total_cost_usd },
    model,
    denied: denials.list(),
    aborted,
  };
}
