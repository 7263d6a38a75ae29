/**
 * The batch API of a profile, through the same SDK clients the provider factory builds for
 * interactive calls (its URL, key and error mapping), so the CLI and the plugin reach a batch API
 * as they reach the model: the CLI with keys from the environment, the plugin with Obsidian's
 * secret storage and `requestUrl`.
 */
import { displayUrl } from "../providers/base-url";
import type { FetchLike, ProviderEnvironment } from "../providers/environment";
import { anthropicClient, anthropicKey, anthropicUrl, openaiClient, openaiKey, openaiUrl } from "../providers/factory";
import { anthropicSdk } from "../providers/anthropic/sdk";
import { openaiSdk } from "../providers/openai/sdk";
import { mapSdkError, sdkErrorClasses } from "../providers/sdk-errors";
import { ANTHROPIC_URL_SETTING, OPENAI_URL_SETTING } from "../providers/server-setting";
import { anthropicBatches } from "./anthropic-batches";
import type { BatchApi } from "./batch-api";
import { openaiBatches } from "./openai-batches";
import type { BatchProvider } from "./record";

export function batchApi(provider: BatchProvider, env: ProviderEnvironment, transport: FetchLike): BatchApi {
  const settings = env.settings;
  if (provider === "anthropic") {
    const url = anthropicUrl(settings);
    const key = anthropicKey(env);
    const context = { label: "Anthropic", model: settings.profiles.anthropic.model, where: displayUrl(url), secrets: [key], setting: ANTHROPIC_URL_SETTING };
    return anthropicBatches(() => anthropicClient(env, url, key, transport), (error) => mapSdkError(error, sdkErrorClasses(anthropicSdk.loaded), context));
  }
  const url = openaiUrl(settings);
  const key = openaiKey(env, url);
  const context = { label: "The OpenAI-compatible server", model: settings.profiles.openai.model, where: displayUrl(url), secrets: key ? [key] : [], setting: OPENAI_URL_SETTING };
  return openaiBatches(() => openaiClient(env, url, key, transport), (error) => mapSdkError(error, sdkErrorClasses(openaiSdk.loaded), context));
}
