/**
 * Shared set-up for provider tests: a scripted server per protocol, settings pointing at it, the
 * real factory building the real SDK clients, tiny retry delays, and the note and replies the
 * scripts use (a note of the fixtures, recorded-looking replies in fixtures).
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createRunContext, type RunContext, type RunContextOptions } from "../../src/core/run-context";
import type { InferenceProvider } from "../../src/core/provider";
import { AnalysisSchema, type Analysis } from "../../src/core/schemas";
import type { RunLogger } from "../../src/core/log";
import type { FetchLike, ProviderEnvironment, SecretSource } from "../../src/providers/environment";
import { createProvider } from "../../src/providers/factory";
import type { RetryPolicy } from "../../src/providers/retry";
import { SettingsSchema, type Settings } from "../../src/settings/schema";
import { FIXTURE_NOTES } from "../helpers/fixture-notes";
import { startScriptedServer, type Protocol, type Reply, type ScriptedModel, type ScriptedServer } from "../helpers/scripted-server";

export const ROOT = resolve(import.meta.dirname, "../..");
const FIXTURES = join(ROOT, "test/fixtures/providers");

export const NOTE_PATH = "notes/Introduction to Bases.md";
/** The note the scripts are about (test/fixtures/notes). */
export const NOTE_FILE = join(FIXTURE_NOTES, "en/Bases/Introduction to Bases.md");

export function noteText(): string {
  return readFileSync(NOTE_FILE, "utf8");
}

export const fixture = (name: string): string => readFileSync(join(FIXTURES, name), "utf8");

export const REPLIES = {
  analysis: fixture("bases-analysis.json"),
  analysisThinking: fixture("bases-analysis-thinking.txt"),
  pages: fixture("bases-pages.json"),
  pagesNoSource: fixture("bases-pages-no-source.json"),
  pagesFenced: fixture("bases-pages-fenced.txt"),
};

/** The analysis fixture, parsed. */
export const ANALYSIS: Analysis = AnalysisSchema.parse(JSON.parse(REPLIES.analysis));

export const content = (text: string, usage = { input: 120, output: 60 }): Reply => ({ kind: "content", text, usage });
export const VALID: readonly Reply[] = [content(REPLIES.analysis), content(REPLIES.pages)];

export const API_KEY = "sk-synapse-test-key-0123456789abcdef";

export const FAST_RETRY: Partial<RetryPolicy> = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 4, jitter: 0 };

export const MODELS: Record<Protocol, string> = { ollama: "llama3.1:8b", anthropic: "claude-haiku-4-5", openai: "gpt-4.1-mini" };

export const SERVER_MODELS: Record<Protocol, readonly ScriptedModel[]> = {
  ollama: [
    { name: "llama3.1:8b", capabilities: ["completion", "tools"], contextLength: 131072 },
    { name: "nomic-embed-text:latest", capabilities: ["embedding"], contextLength: 2048 },
  ],
  anthropic: [{ name: "claude-haiku-4-5-20251001" }, { name: "claude-opus-4-6" }],
  openai: [{ name: "gpt-4.1-mini" }, { name: "gpt-4o" }],
};

export interface SettingsPatch {
  readonly url?: string;
  readonly model?: string;
  readonly requestTimeoutSeconds?: number;
  /** Absent: the request timeout, so a test's one short limit holds for streamed replies too. */
  readonly firstTokenTimeoutSeconds?: number;
  readonly profile?: Record<string, unknown>;
  readonly settings?: Record<string, unknown>;
}

/** Settings that point the protocol's profile at `url`. */
export function settingsFor(protocol: Protocol, url: string, patch: SettingsPatch = {}): Settings {
  const model = patch.model ?? MODELS[protocol];
  const profiles: Record<Protocol, Record<string, unknown>> = {
    ollama: { host: patch.url ?? url, model },
    anthropic: { baseUrl: patch.url ?? url, model },
    openai: { preset: "custom", baseUrl: patch.url ?? `${url}/v1`, model },
  };
  return SettingsSchema.parse({
    requestTimeoutSeconds: patch.requestTimeoutSeconds ?? 5,
    firstTokenTimeoutSeconds: patch.firstTokenTimeoutSeconds ?? patch.requestTimeoutSeconds ?? 5,
    ...patch.settings,
    operations: { ingest: protocol, query: protocol, lint: protocol },
    profiles: { [protocol]: { ...profiles[protocol], ...patch.profile } },
  });
}

export const testSecrets = (key: string | null = API_KEY): SecretSource => ({
  get: (role) => (role === "bridge-token" ? null : key),
});

/** Node's fetch; the plugin injects its own transports instead. */
export const nodeFetch: FetchLike = (input, init) => fetch(input, init);

export function urlOf(input: string | URL | Request): string {
  return typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
}

/**
 * A transport that delivers every request to the scripted server whatever host the URL names:
 * lets a test configure a remote-looking base URL (so `isLocal` is false) and still watch the wire.
 */
export function redirectingFetch(server: ScriptedServer): FetchLike {
  return (input, init) => {
    const url = new URL(urlOf(input));
    url.protocol = "http:";
    url.host = `127.0.0.1:${server.port}`;
    return fetch(url, init);
  };
}

export interface EnvOptions extends SettingsPatch {
  readonly fetch?: FetchLike;
  readonly retry?: Partial<RetryPolicy>;
  readonly logger?: RunLogger;
  readonly key?: string | null;
}

export function envFor(protocol: Protocol, server: ScriptedServer, options: EnvOptions = {}): ProviderEnvironment {
  const transport = options.fetch ?? nodeFetch;
  return {
    settings: settingsFor(protocol, server.url, options),
    secrets: testSecrets(options.key === undefined ? API_KEY : options.key),
    fetch: transport,
    streamingFetch: transport,
    retry: options.retry ?? FAST_RETRY,
    ...(options.logger ? { logger: options.logger } : {}),
  };
}

export function providerFor(protocol: Protocol, server: ScriptedServer, options: EnvOptions = {}): InferenceProvider {
  return createProvider(protocol, envFor(protocol, server, options));
}

export function ingestRun(options: RunContextOptions = {}): RunContext {
  return createRunContext({ source: { path: NOTE_PATH, text: noteText() }, timeoutMs: 20_000, ...options });
}

export function startServer(protocol: Protocol, script: readonly Reply[] = VALID): Promise<ScriptedServer> {
  return startScriptedServer({ protocol, script, models: SERVER_MODELS[protocol] });
}

/** The JSON schema a request asked the model to follow, wherever the protocol puts it. */
export function schemaSent(protocol: Protocol, body: unknown): Record<string, unknown> | null {
  type Schema = Record<string, unknown>;
  const b = body as {
    format?: Schema;
    response_format?: { json_schema?: { schema?: Schema } };
    tools?: { input_schema?: Schema }[];
    output_config?: { format?: { schema?: Schema } };
  };
  if (protocol === "ollama") return b.format ?? null;
  if (protocol === "openai") return b.response_format?.json_schema?.schema ?? null;
  return b.tools?.[0]?.input_schema ?? b.output_config?.format?.schema ?? null;
}

/** The text of all messages of a request, to assert on prompts. */
export function promptSent(body: unknown): string {
  const b = body as { system?: unknown; messages?: { content?: unknown }[] };
  const parts = [typeof b.system === "string" ? b.system : "", ...(b.messages ?? []).map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))];
  return parts.join("\n");
}

/** Drains a chat stream. */
export async function collect(stream: AsyncIterable<string>): Promise<string> {
  let text = "";
  for await (const part of stream) text += part;
  return text;
}

/** Runs `fn` and returns the error it throws (fails the test when it does not throw). */
export async function failure(fn: () => Promise<unknown>): Promise<{ kind: string; message: string; retryAfterMs?: number; status?: number }> {
  try {
    await fn();
  } catch (error) {
    return error as { kind: string; message: string };
  }
  throw new Error("expected a failure, got success");
}
