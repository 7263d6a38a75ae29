/**
 * The `cli` backend: the Claude Agent SDK running its own agent loop in the companion bridge.
 * It declares `supportsAgenticLoop`, so the orchestrator hands it the whole ingest through
 * `generate()`; the pages it returns go through the same validator and write path as every other
 * backend. A repair round sends the previous pages back, so the agent edits them instead of
 * starting over. `chat()` asks the agent a question, read-only, and streams its answer. Plugin code: no Node built-ins, the transport is the injected `fetch`.
 */
import { plural } from "../../core/plural";
import { defineCapabilities, type ProviderCapabilities } from "../../core/capabilities";
import { formatUsd } from "../../core/cost-text";
import { SynapseError, isAbort } from "../../core/errors";
import type { GenerationInput, InferenceProvider } from "../../core/provider";
import { deadlineSignal, throwIfStopped, type NoteScope, type RunContext } from "../../core/run-context";
import type { Message, WikiPage } from "../../core/schemas";
import { raceAbort } from "../../core/abort";
import type { FetchLike } from "../environment";
import {
  MAX_CONTEXT_CHARS,
  MAX_PREVIOUS_PAGES_CHARS,
  parseEventLine,
  type BridgeEvent,
  type BridgePage,
  MAX_QUERY_MESSAGES,
  MAX_QUERY_MESSAGES_CHARS,
  type AnswerEvent,
  type IngestRequest,
  type QueryRequest,
  type ResultEvent,
} from "../../core/bridge-protocol";
import { bridgeHttpError, checkBridgeUrl, endpoint, PLUGIN_TOKEN_HINT, TOKEN_HINT, unreachable } from "./bridge-errors";
import { ndjsonLines } from "./ndjson";

export const CLI_PROVIDER_NAME = "claude-agent";

export interface CliProviderOptions {
  /** The URL the bridge printed, e.g. http://127.0.0.1:8765. */
  readonly bridgeUrl: string;
  /** The bridge token, or a function that reads it when a request is made. */
  readonly token: string | null | (() => string | null);
  /** A fetch that can stream (desktop: the Node http transport; CLI: global fetch). */
  readonly fetch: FetchLike;
  readonly maxTurns: number;
  readonly maxBudgetUsd: number;
  /** Vault-relative wiki folder. */
  readonly wikiFolder: string;
  /** The vault's excluded folders: the bridge never stages them for the agent. */
  readonly excludedFolders?: readonly string[];
  /** Absolute path of the vault on disk, as the bridge was started with (desktop / CLI only). */
  readonly vaultPath?: string | null;
  /** The agent's model; the agent's default when absent. */
  readonly model?: string | null;
}

/** Keeps the start and the end of an over-long context: the end holds the validation feedback. */
function clipContext(text: string): string {
  if (text.length <= MAX_CONTEXT_CHARS) return text;
  const tail = Math.floor(MAX_CONTEXT_CHARS / 4);
  const marker = "\n\n[… context shortened …]\n\n";
  return text.slice(0, MAX_CONTEXT_CHARS - tail - marker.length) + marker + text.slice(text.length - tail);
}

function previousPagesFor(pages: readonly BridgePage[]): { path: string; content: string }[] {
  const out: { path: string; content: string }[] = [];
  let total = 0;
  for (const page of pages) {
    total += page.markdown.length;
    if (total > MAX_PREVIOUS_PAGES_CHARS) break;
    out.push({ path: page.path, content: page.markdown });
  }
  return out;
}

function queryNotes(scope: NoteScope | undefined): QueryRequest["notes"] {
  if (scope === undefined || scope === "none") return "none";
  if (scope === "all") return "all";
  return { folders: scope.folders.map((f) => f.replace(/\\/g, "/").replace(/^\/+|\/+$/g, "")) };
}

/**
 * The conversation as the bridge takes it: the caller's instructions (system messages, such as "the
 * vault has nothing on this, answer generally") go with the question; the oldest turns are dropped
 * first when the conversation is over the protocol's caps.
 */
function conversation(messages: readonly Message[]): QueryRequest["messages"] {
  const instructions = messages.filter((m) => m.role === "system").map((m) => m.content);
  const turns = messages.flatMap((m) => (m.role === "system" || !m.content.trim() ? [] : [{ role: m.role, content: m.content }]));
  const last = turns.at(-1);
  if (last && instructions.length > 0) turns[turns.length - 1] = { role: last.role, content: `${instructions.join("\n")}\n\n${last.content}` };
  let kept = turns.slice(-MAX_QUERY_MESSAGES);
  while (kept.length > 1 && kept.reduce((n, m) => n + m.content.length, 0) > MAX_QUERY_MESSAGES_CHARS) kept = kept.slice(1);
  // A conversation must start with a question; a leading answer left by the cut goes too.
  while (kept.length > 1 && kept[0]?.role !== "user") kept = kept.slice(1);
  return kept.map((m) => ({ role: m.role === "assistant" ? "assistant" : "user", content: m.content.slice(0, MAX_QUERY_MESSAGES_CHARS) }));
}

function describeTarget(target: string | null): string {
  return target ? ` ${target}` : "";
}

/** The outcome of a finished agent run as a SynapseError, or null when it succeeded. */
function outcomeError(result: ResultEvent | AnswerEvent, maxTurns: number, maxBudgetUsd: number): SynapseError | null {
  const { outcome } = result;
  if (outcome.ok) return null;
  switch (outcome.subtype) {
    case "error_max_turns":
      return new SynapseError("unavailable", `The agent reached its turn limit (${maxTurns}) before finishing; raise "Max turns" in the CLI agent settings.`);
    case "error_max_budget_usd":
      return new SynapseError("unavailable", `The agent reached its cost limit ($${maxBudgetUsd}) before finishing; raise "Max budget" in the CLI agent settings.`);
    default:
      if (/not logged in|invalid api key|authentication|401/i.test(outcome.message)) {
        return new SynapseError("request", `The agent could not authenticate (${outcome.message}); set ANTHROPIC_API_KEY where the bridge runs and restart it.`);
      }
      return new SynapseError("unavailable", `The agent run failed: ${outcome.message || outcome.subtype}.`);
  }
}

export function createCliProvider(options: CliProviderOptions): InferenceProvider {
  const capabilities: ProviderCapabilities = defineCapabilities({
    name: CLI_PROVIDER_NAME,
    mode: "cli",
    model: options.model ?? null,
    isLocal: false,
    supportsTools: true,
    supportsAgenticLoop: true,
    structuredOutput: "none",
    streaming: true,
  });
  // The pages each run's last attempt returned, for its repair round.
  const lastPages = new WeakMap<RunContext, readonly BridgePage[]>();

  const readToken = (): string | null => {
    const token = typeof options.token === "function" ? options.token() : options.token;
    return token?.trim() ? token.trim() : null;
  };

  function report(run: RunContext, event: BridgeEvent): void {
    const say = (message: string) => run.progress?.({ type: "activity", message });
    switch (event.type) {
      case "started":
        say("Claude agent started in the bridge's staging copy.");
        break;
      case "tool":
        say(`Agent: ${event.tool}${describeTarget(event.target)}`);
        break;
      case "denied":
        say(`Refused ${event.denial.tool}${describeTarget(event.denial.target)}: ${event.denial.reason}`);
        break;
      case "file":
        say(`Agent wrote ${event.path}`);
        break;
      default:
        break;
    }
  }

  function finish(run: RunContext, result: ResultEvent): WikiPage[] {
    run.usage.record({
      provider: CLI_PROVIDER_NAME,
      model: result.model,
      operation: "agent",
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
      ...(result.usage.costUsd !== null ? { costUsd: result.usage.costUsd } : {}),
    });
    const cost = result.usage.costUsd !== null ? `, ${formatUsd(result.usage.costUsd)}` : "";
    run.progress?.({
      type: "activity",
      message: `Agent finished: ${plural(result.pages.length, "page")}, ${plural(result.outcome.numTurns, "turn")}${cost}, ${plural(result.denied.length, "refused call")}.`,
    });
    if (result.ignored.length) {
      run.progress?.({ type: "activity", message: `Ignored files outside the wiki folder: ${result.ignored.join(", ")}` });
    }
    const error = outcomeError(result, options.maxTurns, options.maxBudgetUsd);
    if (error) throw error;
    lastPages.set(run, result.pages);
    return result.pages.map((p) => p.page);
  }

  async function cancelRun(base: URL, token: string, runId: string): Promise<void> {
    await options
      .fetch(endpoint(base, "/cancel"), {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ runId }),
      })
      .catch(() => undefined);
  }

  /** The agent reads the note itself in the vault: only the related wiki text and feedback are passed on. */
  async function generate({ related, feedback }: GenerationInput, run: RunContext): Promise<WikiPage[]> {
    const retrievalContext = feedback ? `${related}\n\n${feedback}` : related;
    throwIfStopped(run);
    const base = checkBridgeUrl(options.bridgeUrl);
    if (!run.source) throw new SynapseError("config", "The Claude agent backend needs the note being ingested.");
    if (!options.vaultPath) {
      throw new SynapseError("config", "The Claude agent backend needs the vault's folder on disk; it works on desktop and in the CLI only.");
    }
    const token = readToken();
    if (!token) throw new SynapseError("config", `No bridge token is set. ${TOKEN_HINT}`, { pluginMessage: `No bridge token is set. ${PLUGIN_TOKEN_HINT}` });
    const request: IngestRequest = {
      vault: options.vaultPath,
      notePath: run.source.path,
      wikiFolder: options.wikiFolder.replace(/^\/+|\/+$/g, ""),
      excludedFolders: [...(options.excludedFolders ?? [])],
      maxTurns: options.maxTurns,
      maxBudgetUsd: options.maxBudgetUsd,
      retrievalContext: clipContext(retrievalContext),
      previousPages: previousPagesFor(lastPages.get(run) ?? []),
      ...(options.model ? { model: options.model } : {}),
      ...(run.wikiLanguage ? { wikiLanguage: run.wikiLanguage } : {}),
    };

    const stream = runStream(run, token, base, "/ingest", request, (event) => (event.type === "result" ? { done: finish(run, event) } : null));
    for (;;) {
      const next = await stream.next();
      if (next.done) return next.value;
    }
  }

  /**
   * POSTs a request and reads the bridge's NDJSON stream: progress goes to the run, `text` events
   * are yielded, and `until` turns the final event into the call's result. Cancel and the
   * deadline close the stream (which stops the agent) and say so with POST /cancel as well.
   */
  async function* runStream<T>(
    run: RunContext,
    token: string,
    base: URL,
    path: "/ingest" | "/query",
    body: IngestRequest | QueryRequest,
    until: (event: BridgeEvent) => { done: T } | null,
  ): AsyncGenerator<string, T> {
    const { signal, dispose } = deadlineSignal(run);
    let runId: string | null = null;
    try {
      let response: Response;
      try {
        response = await raceAbort(
          options.fetch(endpoint(base, path), {
            method: "POST",
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/x-ndjson" },
            body: JSON.stringify(body),
            signal,
          }),
          signal,
        );
      } catch (error) {
        if (signal.aborted || isAbort(error)) throw error;
        throw unreachable(options.bridgeUrl, error);
      }
      if (!response.ok) throw await bridgeHttpError(response, options.bridgeUrl);
      for await (const line of ndjsonLines(response, signal)) {
        const event = parseEventLine(line);
        if (!event) continue;
        if (event.type === "started") runId = event.runId;
        const end = until(event);
        if (end) return end.done;
        if (event.type === "error") {
          const kind = event.error.code === "cancelled" ? "cancelled" : "unavailable";
          throw new SynapseError(kind, `The bridge stopped the run: ${event.error.message}`);
        }
        if (event.type === "text") yield event.text;
        else report(run, event);
      }
      throw new SynapseError("transport", "The bridge closed the stream before the agent finished.");
    } catch (error) {
      if (signal.aborted) {
        // Closing the stream cancels the agent; say so explicitly too, in case the transport keeps the socket.
        if (runId) void cancelRun(base, token, runId);
        if (run.signal.aborted) throw new SynapseError("cancelled", "The run was cancelled.", { cause: error });
        throw new SynapseError("timeout", "The agent run reached the run's deadline.", { cause: error });
      }
      throw error;
    } finally {
      dispose();
    }
  }

  /** The agent's answer to a question, read-only in a staging copy, streamed as it is written. */
  async function* chat(messages: Message[], retrievalContext: string, run: RunContext): AsyncGenerator<string> {
    throwIfStopped(run);
    const base = checkBridgeUrl(options.bridgeUrl);
    if (!options.vaultPath) {
      throw new SynapseError("config", "The Claude agent backend needs the vault's folder on disk; it works on desktop and in the CLI only.");
    }
    const token = readToken();
    if (!token) throw new SynapseError("config", `No bridge token is set. ${TOKEN_HINT}`, { pluginMessage: `No bridge token is set. ${PLUGIN_TOKEN_HINT}` });
    const request: QueryRequest = {
      vault: options.vaultPath,
      wikiFolder: options.wikiFolder.replace(/^\/+|\/+$/g, ""),
      excludedFolders: [...(options.excludedFolders ?? [])],
      notes: queryNotes(run.noteScope),
      messages: conversation(messages),
      retrievalContext: clipContext(retrievalContext),
      maxTurns: options.maxTurns,
      maxBudgetUsd: options.maxBudgetUsd,
      ...(run.maxOutputTokens !== undefined ? { maxOutputTokens: run.maxOutputTokens } : {}),
      ...(options.model ? { model: options.model } : {}),
      ...(run.wikiLanguage ? { wikiLanguage: run.wikiLanguage } : {}),
    };
    const stream = runStream(run, token, base, "/query", request, (event) => (event.type === "answer" ? { done: finishAnswer(run, event) } : null));
    let streamed = false;
    try {
      for (;;) {
        const next = await stream.next();
        if (next.done) {
          // A bridge (or model) that sent no partial text still answered: hand the answer over whole.
          if (!streamed && next.value) yield next.value;
          return;
        }
        streamed = true;
        yield next.value;
      }
    } finally {
      // The reader stopped early (cancel, an error of its own): close the stream, which stops the agent.
      await stream.return(undefined as never);
    }
  }

  function finishAnswer(run: RunContext, event: AnswerEvent): string {
    run.usage.record({
      provider: CLI_PROVIDER_NAME,
      model: event.model,
      operation: "chat",
      inputTokens: event.usage.inputTokens,
      outputTokens: event.usage.outputTokens,
      ...(event.usage.costUsd !== null ? { costUsd: event.usage.costUsd } : {}),
    });
    const error = outcomeError(event, options.maxTurns, options.maxBudgetUsd);
    if (error) throw error;
    run.consulted?.(event.read.filter((r) => r !== null));
    return event.answer;
  }

  return {
    capabilities: () => capabilities,
    analyze: () =>
      Promise.reject(
        new SynapseError("capability", "The Claude agent backend runs its own agent loop; ingest delegates to it, so analyze() is never called."),
      ),
    generate,
    chat,
  };
}
