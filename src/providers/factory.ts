/**
 * The composition root for providers: the one place where settings and secrets become clients.
 * Adapters receive what they need and never read settings or the environment themselves. The
 * SDKs are built with their own retries off (`maxRetries: 0`: our one retry policy decides) and
 * with every value they would otherwise read from `process.env` passed explicitly, so a stray
 * ANTHROPIC_BASE_URL or OPENAI_ORG_ID in the user's shell cannot redirect a request.
 */
import type OpenAI from "openai";
import { SynapseError } from "../core/errors";
import type { InferenceProvider } from "../core/provider";
import { OPENAI_PRESETS, type ProviderId, type Settings } from "../settings/schema";
import { sanitiseOptions } from "./advanced-options";
import { AnthropicProvider } from "./anthropic/anthropic-provider";
import { anthropicSdk } from "./anthropic/sdk";
import type { AnthropicMessagesClient } from "./anthropic/sdk-client";
import { lazyModule } from "./lazy-module";
import { openaiSdk } from "./openai/sdk";
import { displayUrl, isLoopbackUrl, parseBaseUrl } from "./base-url";
import type { ReadinessReport } from "../core/readiness";
import type { FetchLike, ProviderEnvironment, SecretRole } from "./environment";
import { OfflineProvider } from "./offline/offline-provider";
import { checkBridgeHealth, createCliProvider } from "./cli";
import { bindFetch, type OllamaConnect } from "./ollama/client";
import { OllamaProvider } from "./ollama/ollama-provider";
import { OpenAICompatibleProvider } from "./openai/openai-provider";
import { probeContextWindow, type ReportedWindow } from "./openai/context-probe";
import { knownContextWindow } from "./context-windows";

/** A probe that takes longer than this is taken to know nothing. */
const WINDOW_PROBE_TIMEOUT_MS = 3000;
import { resolveRetryPolicy } from "./retry";

export const DEFAULT_OLLAMA_HOST = "http://127.0.0.1:11434";
export const DEFAULT_ANTHROPIC_URL = "https://api.anthropic.com";

export function createProvider(id: ProviderId, env: ProviderEnvironment): InferenceProvider {
  switch (id) {
    case "offline":
      return new OfflineProvider();
    case "ollama":
      return createOllama(env);
    case "anthropic":
      return createAnthropic(env);
    case "openai":
      return createOpenAI(env);
    case "cli":
      return createCli(env);
  }
}

/** The agentic backend: the companion bridge runs the agent; the token is read at each request. */
function createCli(env: ProviderEnvironment): InferenceProvider {
  const profile = env.settings.profiles.cli;
  const { streamingFetch } = transports(env, "The bridge");
  return createCliProvider({
    bridgeUrl: profile.bridgeUrl,
    token: () => readKey(env, "bridge-token", profile.tokenSecret),
    fetch: streamingFetch,
    maxTurns: profile.maxTurns,
    maxBudgetUsd: profile.maxBudgetUsd,
    wikiFolder: env.settings.wikiFolder,
    excludedFolders: env.settings.excludedFolders,
    vaultPath: env.vaultPath ?? null,
    model: profile.model.trim() || null,
  });
}

export function bridgeHealth(env: ProviderEnvironment): Promise<ReadinessReport> {
  const profile = env.settings.profiles.cli;
  const { fetch } = transports(env, "The bridge");
  return checkBridgeHealth({ bridgeUrl: profile.bridgeUrl, token: readKey(env, "bridge-token", profile.tokenSecret), fetch, vaultPath: env.vaultPath ?? null });
}

export function transports(env: ProviderEnvironment, label: string): { fetch: FetchLike; streamingFetch: FetchLike } {
  if (!env.fetch) throw new SynapseError("config", `${label} needs an HTTP transport, and none was provided.`);
  return { fetch: env.fetch, streamingFetch: env.streamingFetch ?? env.fetch };
}

export function requestTimeoutMs(settings: Settings): number {
  return Math.max(1, Math.round(settings.requestTimeoutSeconds * 1000));
}

export function firstTokenTimeoutMs(settings: Settings): number {
  return Math.max(1, Math.round(settings.firstTokenTimeoutSeconds * 1000));
}

function readKey(env: ProviderEnvironment, role: SecretRole, name: string): string | null {
  const value = env.secrets.get(role, name);
  return value && value.trim() ? value.trim() : null;
}

/** Ollama's cloud models carry a "cloud" tag ("gpt-oss:120b-cloud", "deepseek-v3.1:cloud"). */
export function isOllamaCloudModel(model: string): boolean {
  return /(^|[:-])cloud$/i.test(model.trim());
}

export function ollamaHost(settings: Settings): URL {
  const raw = settings.profiles.ollama.host.trim() || DEFAULT_OLLAMA_HOST;
  // OLLAMA_HOST is commonly written without a scheme ("127.0.0.1:11434"); Ollama itself accepts that.
  const withScheme = raw.includes("://") ? raw : `http://${raw}`;
  return parseBaseUrl(withScheme, { cli: "Ollama host (setting \"Host\" under Local: Ollama, or --base-url)", plugin: "Ollama host (\"Host\" under Local: Ollama)" });
}

/** A client per request, over a fetch bound to that request's signal (see ollama/client.ts). */
/** ollama-js, loaded when the Ollama backend first sends a request. */
const ollamaSdk = lazyModule(() => import("ollama/browser"));

export function ollamaConnect(host: URL, fetchImpl: FetchLike, streamingFetch: FetchLike): OllamaConnect {
  const base = displayUrl(host);
  return async (binding) => {
    const { Ollama } = await ollamaSdk.load();
    return new Ollama({ host: base, fetch: bindFetch(binding.streaming ? streamingFetch : fetchImpl, binding) });
  };
}

export function createOllama(env: ProviderEnvironment): OllamaProvider {
  const profile = env.settings.profiles.ollama;
  const host = ollamaHost(env.settings);
  const { fetch, streamingFetch } = transports(env, "Ollama");
  return new OllamaProvider({
    connect: ollamaConnect(host, fetch, streamingFetch),
    host: displayUrl(host),
    // Ollama's cloud models ("gpt-oss:120b-cloud") run on ollama.com even through a local server.
    isLocal: isLoopbackUrl(host) && !isOllamaCloudModel(profile.model) && !isOllamaCloudModel(profile.embeddingModel),
    model: profile.model.trim(),
    embeddingModel: profile.embeddingModel.trim(),
    options: sanitiseOptions(profile.options).options,
    maxTokens: ollamaMaxTokens(profile),
    declaresTools: profile.supportsTools,
    contextWindow: ollamaContextWindow(profile),
    requestTimeoutMs: requestTimeoutMs(env.settings),
    firstTokenTimeoutMs: firstTokenTimeoutMs(env.settings),
    retry: resolveRetryPolicy(env.retry),
    ...(env.logger ? { logger: env.logger } : {}),
  });
}

/** The "Context window" setting, unless the advanced options pin num_ctx (the user's explicit choice wins). */
export function ollamaContextWindow(profile: Settings["profiles"]["ollama"]): number {
  const pinned = Number(profile.options.num_ctx);
  return Number.isInteger(pinned) && pinned > 0 ? pinned : profile.contextWindow;
}

/** The setting, else a num_predict from the advanced options, else 0 (each step's own limit). */
function ollamaMaxTokens(profile: Settings["profiles"]["ollama"]): number {
  if (profile.maxTokens > 0) return profile.maxTokens;
  const fromOptions = Number(profile.options.num_predict);
  return Number.isInteger(fromOptions) && fromOptions > 0 ? fromOptions : 0;
}

export function anthropicUrl(settings: Settings): URL {
  return parseBaseUrl(settings.profiles.anthropic.baseUrl || DEFAULT_ANTHROPIC_URL, { cli: "Anthropic base URL (setting \"Base URL\" or --base-url)", plugin: "Anthropic base URL (\"Base URL\" under API: Anthropic)" });
}

export async function anthropicClient(env: ProviderEnvironment, url: URL, key: string, transport: FetchLike): Promise<AnthropicMessagesClient> {
  const { AnthropicMessagesClient } = await anthropicSdk.load();
  return new AnthropicMessagesClient({
    apiKey: key,
    authToken: null,
    webhookKey: null,
    // The SDK's own logger would print request bodies at debug level; ours is metadata-only.
    logLevel: "off",
    baseURL: url.href.replace(/\/$/, ""),
    fetch: transport,
    maxRetries: 0,
    timeout: requestTimeoutMs(env.settings),
    ...(env.browserLike ? { dangerouslyAllowBrowser: true } : {}),
  });
}

/** The Anthropic key, or a config error saying where to put it. */
export function anthropicKey(env: ProviderEnvironment): string {
  const profile = env.settings.profiles.anthropic;
  const key = readKey(env, "anthropic-api-key", profile.apiKeySecret);
  if (!key) {
    throw new SynapseError(
      "config",
      `No Anthropic API key was found; add it in the plugin settings (secret "${profile.apiKeySecret}") or set ANTHROPIC_API_KEY for the CLI.`,
      { pluginMessage: `No Anthropic API key was found; choose the secret that holds it under "API key" in API: Anthropic (now "${profile.apiKeySecret}").` },
    );
  }
  return key;
}

export function createAnthropic(env: ProviderEnvironment): AnthropicProvider {
  const profile = env.settings.profiles.anthropic;
  const url = anthropicUrl(env.settings);
  const key = anthropicKey(env);
  const { fetch, streamingFetch } = transports(env, "Anthropic");
  const timeout = requestTimeoutMs(env.settings);
  const build = (transport: FetchLike) => lazyModule(() => anthropicClient(env, url, key, transport)).load;
  return new AnthropicProvider({
    client: build(fetch),
    streamingClient: build(streamingFetch),
    where: displayUrl(url),
    // No Anthropic model runs on this machine: a loopback base URL is a proxy to the cloud, so
    // claiming isLocal for it would let notes past local-only mode.
    isLocal: false,
    model: profile.model.trim(),
    maxTokens: profile.maxTokens,
    structuredOutput: profile.structuredOutput,
    options: sanitiseOptions(profile.options).options,
    requestTimeoutMs: timeout,
    firstTokenTimeoutMs: firstTokenTimeoutMs(env.settings),
    retry: resolveRetryPolicy(env.retry),
    secrets: [key],
    ...(env.logger ? { logger: env.logger } : {}),
  });
}

export function openaiUrl(settings: Settings): URL {
  const profile = settings.profiles.openai;
  const raw = profile.baseUrl || OPENAI_PRESETS[profile.preset] || OPENAI_PRESETS.openai;
  return parseBaseUrl(raw, { cli: "OpenAI-compatible base URL (setting \"Base URL\" or --base-url)", plugin: "OpenAI-compatible base URL (\"Base URL\" under API: OpenAI-compatible)" });
}

/** The key for an OpenAI-compatible server; required by the hosted services, optional for local servers. */
export function openaiKey(env: ProviderEnvironment, url: URL): string | null {
  const profile = env.settings.profiles.openai;
  const key = readKey(env, "openai-api-key", profile.apiKeySecret);
  if (!key && (url.hostname === "api.openai.com" || url.hostname === "openrouter.ai")) {
    throw new SynapseError(
      "config",
      `No API key was found for ${url.hostname}; add it in the plugin settings (secret "${profile.apiKeySecret}") or set OPENAI_API_KEY for the CLI.`,
      { pluginMessage: `No API key was found for ${url.hostname}; choose the secret that holds it under "API key" in API: OpenAI-compatible (now "${profile.apiKeySecret}").` },
    );
  }
  return key;
}

export async function openaiClient(env: ProviderEnvironment, url: URL, key: string | null, transport: FetchLike): Promise<OpenAI> {
  const { default: OpenAI } = await openaiSdk.load();
  return new OpenAI({
    // Local servers (LM Studio, llama.cpp, vLLM) accept any key; the SDK insists on one.
    apiKey: key ?? "no-key",
    organization: null,
    project: null,
    webhookSecret: null,
    logLevel: "off",
    baseURL: url.href.replace(/\/$/, ""),
    fetch: transport,
    maxRetries: 0,
    timeout: requestTimeoutMs(env.settings),
    ...(env.browserLike ? { dangerouslyAllowBrowser: true } : {}),
  });
}

/** `embeddingModel`, when given, makes the provider declare embeddings from that model (src/providers/embedder.ts). */
export function createOpenAI(env: ProviderEnvironment, embeddingModel = ""): OpenAICompatibleProvider {
  const profile = env.settings.profiles.openai;
  const url = openaiUrl(env.settings);
  const official = url.hostname === "api.openai.com";
  const key = openaiKey(env, url);
  const { fetch, streamingFetch } = transports(env, "The OpenAI-compatible provider");
  const timeout = requestTimeoutMs(env.settings);
  const build = (transport: FetchLike) => lazyModule(() => openaiClient(env, url, key, transport)).load;
  return new OpenAICompatibleProvider({
    client: build(fetch),
    streamingClient: build(streamingFetch),
    where: displayUrl(url),
    isLocal: isLoopbackUrl(url),
    model: profile.model.trim(),
    embeddingModel,
    maxTokens: profile.maxTokens,
    contextWindow: profile.contextWindow,
    probeWindow: () => openaiWindowProbe(env, url, profile.model.trim(), key, fetch),
    maxTokensField: official ? "max_completion_tokens" : "max_tokens",
    structuredOutput: profile.structuredOutput,
    supportsTools: official,
    options: sanitiseOptions(profile.options).options,
    requestTimeoutMs: timeout,
    firstTokenTimeoutMs: firstTokenTimeoutMs(env.settings),
    retry: resolveRetryPolicy(env.retry),
    secrets: key ? [key] : [],
    ...(env.logger ? { logger: env.logger } : {}),
  });
}

/**
 * Hosted APIs do not report a window, and their models' are documented (so is a hosted model's
 * behind a local proxy); any other server is asked.
 */
export function openaiWindowProbe(env: ProviderEnvironment, url: URL, model: string, key: string | null, transport: FetchLike): Promise<ReportedWindow | null> {
  const hosted = url.hostname === "api.openai.com" || url.hostname === "openrouter.ai";
  if (hosted || !model || knownContextWindow(model) > 0) return Promise.resolve(null);
  return probeContextWindow({ fetch: transport, baseUrl: url, model, apiKey: key, timeoutMs: Math.min(WINDOW_PROBE_TIMEOUT_MS, requestTimeoutMs(env.settings)) });
}

