/**
 * Plugin settings (per vault, in `<vault>/.obsidian/plugins/synapse/data.json`), shared by the
 * plugin and the CLI. Parsed with zod on load: every field has a default, so an old, partial or
 * hand-edited file never breaks anything. Secrets are never stored here, only the names under
 * which Obsidian's secret storage keeps them.
 */
import * as z from "zod";
import { AUTO_LANGUAGE, isWikiLanguage } from "../core/wiki-language";
import { wikiFolderProblem } from "./folder-name";

export const SETTINGS_VERSION = 1;

/** Backends that can embed text: a capability some providers declare, chosen separately from the chat provider. */
export const EMBEDDING_PROVIDER_IDS = ["none", "ollama", "openai"] as const;
export type EmbeddingProviderId = (typeof EMBEDDING_PROVIDER_IDS)[number];

export const PROVIDER_IDS = ["offline", "ollama", "anthropic", "openai", "cli"] as const;
/** What a new page does when the user's own note covers its subject (wiki/ingest/canon-notes.ts). */
export const CANON_MODES = ["link", "page"] as const;
export type CanonMode = (typeof CANON_MODES)[number];

export const ProviderIdSchema = z.enum(PROVIDER_IDS);
export type ProviderId = z.infer<typeof ProviderIdSchema>;

/** Names of secrets in Obsidian's secret storage: lowercase letters, digits and dashes. */
const SecretNameSchema = z.string().regex(/^[a-z0-9-]*$/);

/** Extra request options; reserved keys (model, messages, schema, tools, stream…) are refused by the adapters. */
const AdvancedOptionsSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).catch({});

export const OllamaProfileSchema = z.object({
  host: z.string().default("http://127.0.0.1:11434"),
  model: z.string().default(""),
  embeddingModel: z.string().default(""),
  /** The user's claim that the model does tool calling; the readiness check compares it with what the model reports. */
  supportsTools: z.boolean().default(false),
  /**
   * The most output tokens one reply may have (Ollama's num_predict): it caps the limit each step
   * asks for (pages, analysis, answer, lint verdict); 0 leaves each step its own limit.
   */
  maxTokens: z.number().int().nonnegative().default(0),
  /**
   * The largest context window (num_ctx) a request may ask Ollama for. Each request asks for what
   * it needs (its prompt and its reply), up to this and to the model's own limit; Ollama's default
   * (4,096 or 2,048 tokens) would silently cut a longer prompt from the start. The memory the model
   * needs grows with the window, so the default suits a machine with 8 GB.
   */
  contextWindow: z.number().int().min(1024).default(8192),
  /** Ollama `options` (temperature, num_ctx…). */
  options: AdvancedOptionsSchema.default({}),
});

export const AnthropicProfileSchema = z.object({
  model: z.string().default("claude-sonnet-4-6"),
  /** Empty for the official endpoint. */
  baseUrl: z.string().default(""),
  apiKeySecret: SecretNameSchema.default("synapse-anthropic-api-key"),
  maxTokens: z.number().int().positive().default(8192),
  /** "tool" (forced tool call, works everywhere) or "json_schema" (output_config). */
  structuredOutput: z.enum(["tool", "json_schema"]).default("tool"),
  options: AdvancedOptionsSchema.default({}),
});

export const OPENAI_PRESETS = {
  openai: "https://api.openai.com/v1",
  openrouter: "https://openrouter.ai/api/v1",
  lmstudio: "http://127.0.0.1:1234/v1",
  custom: "",
} as const;

export const OpenAIProfileSchema = z.object({
  preset: z.enum(["openai", "openrouter", "lmstudio", "custom"]).default("openai"),
  baseUrl: z.string().default(OPENAI_PRESETS.openai),
  model: z.string().default("gpt-4.1-mini"),
  apiKeySecret: SecretNameSchema.default("synapse-openai-api-key"),
  maxTokens: z.number().int().positive().default(8192),
  /** "json_schema" asks for response_format (with a prompt fallback if the server refuses); "prompt" only describes the schema in the prompt. */
  structuredOutput: z.enum(["json_schema", "prompt"]).default("json_schema"),
  /**
   * The context window of a local server (LM Studio, llama-server, vLLM, Ollama's /v1), in tokens;
   * 0: learn it from the server. Every request keeps its prompt and reply within it. A window the
   * server reports is never exceeded; this lowers it, or stands in when the server says nothing
   * (and for Ollama's /v1, whose reported 4,096 is only its default, it may raise it).
   */
  contextWindow: z.number().int().nonnegative().default(0),
  options: AdvancedOptionsSchema.default({}),
});

export const CliProfileSchema = z.object({
  bridgeUrl: z.string().default("http://127.0.0.1:8765"),
  tokenSecret: SecretNameSchema.default("synapse-bridge-token"),
  /** The agent's model; empty for the agent's own default. */
  model: z.string().default(""),
  maxTurns: z.number().int().positive().default(30),
  maxBudgetUsd: z.number().positive().default(1),
});

/** When the plugin shows an ingest's plan before writing: always, only when existing pages change, never. */
export const REVIEW_MODES = ["always", "changes", "never"] as const;
export type ReviewMode = (typeof REVIEW_MODES)[number];

/** USD per million tokens; the cache prices are optional (absent: cached input is priced as input, so a cost is never understated). */
const ModelPriceSchema = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cacheRead: z.number().nonnegative().optional(),
  cacheWrite: z.number().nonnegative().optional(),
});

export const SettingsSchema = z.object({
  version: z.literal(SETTINGS_VERSION).default(SETTINGS_VERSION),
  /** Vault-relative; refused when some platform could not hold it (`Wiki.`, `C:\\x`, `NUL`). */
  wikiFolder: z
    .string()
    .superRefine((folder, ctx) => {
      const problem = wikiFolderProblem(folder);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .default("wiki"),
  /** "auto": each page in its note's language; an ISO 639-1 code: every page in that language. */
  wikiLanguage: z.string().refine(isWikiLanguage, 'The wiki language must be "auto" or a two-letter ISO 639-1 code such as "en".').default(AUTO_LANGUAGE),
  /** Generation attempts per ingest (analyse runs once). */
  maxIter: z.number().int().min(1).max(10).default(3),
  /** Tokens (in + out) one ingest may spend; 0 for no limit. */
  tokenBudget: z.number().int().min(0).default(100_000),
  /**
   * USD the model checks of one lint may spend, at the lint model's price; 0 for no limit. A remote
   * model without a known price cannot be held to a limit, so the checks refuse it (see src/lint/cost-limit.ts).
   */
  lintCostLimitUsd: z.number().min(0).default(0),
  /**
   * Seconds a provider may stay silent: a reply that is not streamed must arrive within it, a
   * streamed one may pause this long between two pieces (a slow but steady reply is never cut).
   */
  requestTimeoutSeconds: z.number().positive().default(120),
  /** Seconds a streamed reply's first piece may take: a model on a CPU reads a long prompt for a minute or more before it writes. */
  firstTokenTimeoutSeconds: z.number().positive().default(300),
  /** Seconds one whole ingest may take: long enough for a local model on a CPU (two replies of minutes each). */
  runTimeoutSeconds: z.number().positive().default(1800),
  localOnly: z.boolean().default(false),
  excludedFolders: z.array(z.string()).default([]),
  /** Opt-in capture of prompts and replies in logs (truncated, redacted). */
  logContent: z.boolean().default(false),
  /** What "Ask the wiki" answers from: the wiki only, or the wiki first and then the source notes. */
  queryScope: z.enum(["wiki", "wiki-and-notes"]).default("wiki-and-notes"),
  /**
   * A new page about a subject the user already has a note on: `link` writes no page and links
   * to the note; `page` writes the page with a line linking to the note.
   */
  userNoteCanon: z.enum(CANON_MODES).default("link"),
  /** Review before apply in the plugin (the CLI has --dry-run and --diff instead). */
  reviewMode: z.enum(REVIEW_MODES).default("changes"),
  /** Largest note, in bytes, that an ingest accepts. */
  maxNoteBytes: z.number().int().positive().default(512 * 1024),
  operations: z
    .object({
      ingest: ProviderIdSchema.default("offline"),
      query: ProviderIdSchema.default("offline"),
      lint: ProviderIdSchema.default("offline"),
    })
    .prefault({}),
  profiles: z
    .object({
      ollama: OllamaProfileSchema.prefault({}),
      anthropic: AnthropicProfileSchema.prefault({}),
      openai: OpenAIProfileSchema.prefault({}),
      cli: CliProfileSchema.prefault({}),
    })
    .prefault({}),
  /**
   * Optional vector search: which backend embeds the vault's chunks, and with which model. "none"
   * (the default) leaves search to text and links. The backend's host, base URL and key are those
   * of its profile above.
   */
  embedding: z
    .object({
      provider: z.enum(EMBEDDING_PROVIDER_IDS).default("none"),
      /** Empty for Ollama means the Ollama profile's embedding model. */
      model: z.string().default(""),
    })
    .prefault({}),
  /** Per-model price overrides, USD per million tokens. */
  prices: z.record(z.string(), ModelPriceSchema).default({}),
});
export type Settings = z.infer<typeof SettingsSchema>;
export type Operation = keyof Settings["operations"];

export const DEFAULT_SETTINGS: Settings = SettingsSchema.parse({});
