/**
 * `--embed-provider`, `--embed-model` and `--base-url` for `synapse index` and `synapse search`:
 * which backend embeds the vault's chunks, overriding the vault's `embedding` settings for one run.
 * `--base-url` points that backend's profile (Ollama host, OpenAI-compatible base URL) elsewhere.
 */
import { EMBEDDING_PROVIDER_IDS, type EmbeddingProviderId, type Settings } from "../settings/schema";
import { UsageError } from "./io";

export const EMBED_FLAG_OPTIONS = {
  "embed-provider": { type: "string" },
  "embed-model": { type: "string" },
  "base-url": { type: "string" },
} as const;

export interface EmbedFlags {
  readonly provider?: string;
  readonly model?: string;
  readonly baseUrl?: string;
}

export function embedFlagsOf(values: { readonly "embed-provider"?: string; readonly "embed-model"?: string; readonly "base-url"?: string }): EmbedFlags {
  return {
    ...(values["embed-provider"] !== undefined ? { provider: values["embed-provider"] } : {}),
    ...(values["embed-model"] !== undefined ? { model: values["embed-model"] } : {}),
    ...(values["base-url"] !== undefined ? { baseUrl: values["base-url"] } : {}),
  };
}

export function hasEmbedFlags(flags: EmbedFlags): boolean {
  return flags.provider !== undefined || flags.model !== undefined || flags.baseUrl !== undefined;
}

/** The settings with the flags applied; flags win over the vault's settings. */
export function applyEmbedFlags(settings: Settings, flags: EmbedFlags): Settings {
  if (!hasEmbedFlags(flags)) return settings;
  const ids: readonly string[] = EMBEDDING_PROVIDER_IDS;
  if (flags.provider !== undefined && !ids.includes(flags.provider)) {
    throw new UsageError(`Unknown embedding provider "${flags.provider}"; use one of ${EMBEDDING_PROVIDER_IDS.join(", ")}.`);
  }
  const provider = (flags.provider ?? settings.embedding.provider) as EmbeddingProviderId;
  if (provider === "none") {
    if (flags.model !== undefined || flags.baseUrl !== undefined) throw new UsageError("--embed-model and --base-url need --embed-provider ollama or openai.");
    return { ...settings, embedding: { provider, model: "" } };
  }
  const next: Settings = structuredClone(settings);
  next.embedding = { provider, model: flags.model?.trim() ?? (flags.provider === undefined ? settings.embedding.model : "") };
  if (flags.baseUrl !== undefined) {
    if (provider === "ollama") next.profiles.ollama.host = flags.baseUrl;
    else {
      next.profiles.openai.baseUrl = flags.baseUrl;
      next.profiles.openai.preset = "custom";
    }
  }
  return next;
}
