/**
 * The readiness check behind "Test connection" and `synapse models`: reachability, the models a
 * server offers and what each can do, whether the configured model is among them, and what to fix.
 * A configuration error (bad URL, missing key) is a problem in the report, not a thrown error.
 */
import { SynapseError, toSynapseError } from "../core/errors";
import { createRunContext, deadlineSignal } from "../core/run-context";
import type { ProviderId } from "../settings/schema";
import { describeIgnoredOptions, sanitiseOptions } from "./advanced-options";
import { displayUrl, isLoopbackUrl } from "./base-url";
import { problemFields, type ReadinessReport } from "../core/readiness";
import type { ProviderEnvironment } from "./environment";
import {
  anthropicClient,
  bridgeHealth,
  anthropicKey,
  anthropicUrl,
  ollamaConnect,
  ollamaContextWindow,
  ollamaHost,
  openaiClient,
  openaiKey,
  openaiUrl,
  openaiWindowProbe,
  requestTimeoutMs,
  transports,
} from "./factory";
import { ollamaReadiness } from "./ollama/readiness";
import { mapSdkError, sdkErrorClasses, type SdkErrorClasses } from "./sdk-errors";
import { anthropicSdk } from "./anthropic/sdk";
import { openaiSdk } from "./openai/sdk";
import { describeWindow, resolveWindow } from "./openai/context-window";
import { knownContextWindow } from "./context-windows";
import { ANTHROPIC_URL_SETTING, OPENAI_URL_SETTING } from "./server-setting";

type ModelEntry = { name: string; capabilities: string[] };

function report(provider: string, fields: Partial<ReadinessReport>): ReadinessReport {
  const problems = fields.problems ?? [];
  return {
    provider,
    ok: problems.length === 0 && fields.reachable === true,
    reachable: false,
    version: null,
    models: [],
    modelPresent: null,
    details: [],
    ...fields,
    problems,
  };
}

export async function checkReadiness(id: ProviderId, env: ProviderEnvironment): Promise<ReadinessReport> {
  try {
    switch (id) {
      case "offline":
        return report("offline", { reachable: true, details: ["The offline provider is built in and needs no model or server."] });
      case "ollama":
        return await ollamaCheck(env);
      case "anthropic":
        return await hostedCheck(env, "anthropic");
      case "openai":
        return await hostedCheck(env, "openai");
      case "cli":
        return await bridgeHealth(env);
    }
  } catch (error) {
    // A configuration error (no key, an address that is no URL) means nothing was asked: not set up yet.
    const failure = toSynapseError(error, "config");
    return report(id, { ...problemFields([failure]), notSetUp: failure.kind === "config" });
  }
}

async function ollamaCheck(env: ProviderEnvironment): Promise<ReadinessReport> {
  const profile = env.settings.profiles.ollama;
  const host = ollamaHost(env.settings);
  const { fetch, streamingFetch } = transports(env, "Ollama");
  return ollamaReadiness({
    connect: ollamaConnect(host, fetch, streamingFetch),
    host: displayUrl(host),
    isLocal: isLoopbackUrl(host),
    model: profile.model.trim(),
    embeddingModel: profile.embeddingModel.trim(),
    declaresTools: profile.supportsTools,
    contextWindow: ollamaContextWindow(profile),
    timeoutMs: requestTimeoutMs(env.settings),
    warnings: describeIgnoredOptions("Ollama", sanitiseOptions(profile.options).ignored),
  });
}

/** Hosted model ids often carry a date ("claude-sonnet-4-5-20250929") behind the alias users type. */
function listed(models: readonly ModelEntry[], wanted: string): boolean {
  return models.some((m) => m.name === wanted || m.name.startsWith(`${wanted}-`) || m.name.endsWith(`/${wanted}`));
}

/** OpenRouter lists `supported_parameters`; these are the ones that matter to Synapse. */
function capabilitiesOf(entry: Record<string, unknown>): string[] {
  const params = entry.supported_parameters;
  if (!Array.isArray(params)) return [];
  return params.filter((p): p is string => typeof p === "string" && ["tools", "structured_outputs", "response_format"].includes(p));
}

async function hostedCheck(env: ProviderEnvironment, which: "anthropic" | "openai"): Promise<ReadinessReport> {
  const label = which === "anthropic" ? "Anthropic" : "The OpenAI-compatible server";
  const profile = env.settings.profiles[which];
  const url = which === "anthropic" ? anthropicUrl(env.settings) : openaiUrl(env.settings);
  const key = which === "anthropic" ? anthropicKey(env) : openaiKey(env, url);
  const { fetch } = transports(env, label);
  const { signal, dispose } = deadlineSignal(createRunContext(), requestTimeoutMs(env.settings));
  const details = [
    `${label} at ${displayUrl(url)}.`,
    isLoopbackUrl(url)
      ? "The server is on this machine, so notes stay here (allowed in local-only mode)."
      : "The server is not on this machine: notes are sent over the network, and local-only mode refuses it.",
    ...describeIgnoredOptions(label, sanitiseOptions(profile.options).ignored),
  ];
  const models: ModelEntry[] = [];
  try {
    if (which === "anthropic") {
      const client = await anthropicClient(env, url, key ?? "", fetch);
      // Bounded: at most 10 pages of the model list.
      let page = await client.models.list({ limit: 100 }, { signal, maxRetries: 0 });
      for (let i = 0; i < 10; i++) {
        for (const m of page.data) models.push({ name: m.id, capabilities: [] });
        if (!page.hasNextPage()) break;
        page = await page.getNextPage();
      }
    } else {
      const client = await openaiClient(env, url, key, fetch);
      const page = await client.models.list({ signal, maxRetries: 0 });
      for (const m of page.data) models.push({ name: m.id, capabilities: capabilitiesOf(m as unknown as Record<string, unknown>) });
    }
  } catch (error) {
    const classes: SdkErrorClasses = sdkErrorClasses(which === "anthropic" ? anthropicSdk.loaded : openaiSdk.loaded);
    const failure = SynapseError.isInstance(error) ? error : mapSdkError(error, classes, { label, model: profile.model, where: displayUrl(url), secrets: key ? [key] : [], setting: which === "anthropic" ? ANTHROPIC_URL_SETTING : OPENAI_URL_SETTING });
    const reachable = failure.status !== undefined;
    return report(which, { reachable, details, ...problemFields([signal.aborted ? `${label} did not answer within the request timeout.` : failure]) });
  } finally {
    dispose();
  }
  const problems: string[] = [];
  const model = profile.model.trim();
  let modelPresent: boolean | null = null;
  if (!model) problems.push(`No model is configured; pick one of the ${models.length} models the server offers.`);
  else if (models.length > 0) {
    modelPresent = listed(models, model);
    if (!modelPresent) problems.push(`The server does not offer "${model}"; pick one it lists.`);
    else details.push(`"${model}" is available.`);
  }
  details.push(`${models.length} model${models.length === 1 ? " is" : "s are"} offered.`);
  if (which === "openai" && model) {
    const reported = await openaiWindowProbe(env, url, model, key, fetch);
    const window = resolveWindow(reported, env.settings.profiles.openai.contextWindow, knownContextWindow(model));
    details.push(describeWindow(window));
    return report(which, { reachable: true, models, modelPresent, details, problems, contextWindow: window.tokens > 0 ? window.tokens : null });
  }
  return report(which, { reachable: true, models, modelPresent, details, problems });
}
