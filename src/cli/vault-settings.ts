/** Applying CLI flags to the vault's plugin settings (read by `src/vault/node-vault-settings.ts`). */
import { isWikiLanguage } from "../core/wiki-language";
import type { Operation, ProviderId, Settings } from "../settings/schema";
import { UsageError } from "./io";

export { readVaultSettings, SETTINGS_FILE } from "../vault/node-vault-settings";

export interface ProviderFlags {
  readonly provider?: string;
  readonly model?: string;
  readonly baseUrl?: string;
  readonly bridgeUrl?: string;
  readonly maxIter?: string;
  /** "auto" or an ISO 639-1 code: the language every page is written in. */
  readonly lang?: string;
}

function parseProvider(value: string): ProviderId {
  const ids: readonly string[] = ["offline", "ollama", "anthropic", "openai", "cli"];
  if (!ids.includes(value)) throw new UsageError(`Unknown provider "${value}"; use one of ${ids.join(", ")}.`);
  return value as ProviderId;
}

/** Returns the provider to use for an operation and settings with the flags applied; flags win over the vault's settings. */
export function applyFlags(settings: Settings, flags: ProviderFlags, operation: Operation = "ingest"): { id: ProviderId; settings: Settings } {
  const id = flags.provider ? parseProvider(flags.provider) : settings.operations[operation];
  const next: Settings = structuredClone(settings);
  next.operations[operation] = id;
  if (flags.maxIter !== undefined) {
    const n = Number(flags.maxIter);
    if (!Number.isInteger(n) || n < 1 || n > 10) throw new UsageError(`--max-iter must be a whole number from 1 to 10, not "${flags.maxIter}".`);
    next.maxIter = n;
  }
  if (flags.lang !== undefined) {
    const lang = flags.lang.trim().toLowerCase();
    if (!isWikiLanguage(lang)) {
      throw new UsageError(`--lang must be "auto" (each note's language) or a two-letter ISO 639-1 code such as "en", "de" or "ja", not "${flags.lang}".`);
    }
    next.wikiLanguage = lang;
  }
  const { model, baseUrl } = flags;
  if (id === "ollama") {
    if (model) next.profiles.ollama.model = model;
    if (baseUrl) next.profiles.ollama.host = baseUrl;
  } else if (id === "anthropic") {
    if (model) next.profiles.anthropic.model = model;
    if (baseUrl) next.profiles.anthropic.baseUrl = baseUrl;
  } else if (id === "openai") {
    if (model) next.profiles.openai.model = model;
    if (baseUrl) {
      next.profiles.openai.baseUrl = baseUrl;
      next.profiles.openai.preset = "custom";
    }
  } else if (id === "cli") {
    const url = flags.bridgeUrl ?? baseUrl;
    if (url) next.profiles.cli.bridgeUrl = url;
    if (model) next.profiles.cli.model = model;
  } else if (model || baseUrl) {
    throw new UsageError("The offline provider uses no model and no server; drop --model and --base-url.");
  }
  return { id, settings: next };
}
