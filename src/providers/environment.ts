/**
 * What the composition roots (plugin, CLI, bridge) hand the provider factory. Adapters never read
 * settings, secrets or the environment themselves: the factory builds their clients from this.
 */
import type { RunLogger } from "../core/log";
import type { Settings } from "../settings/schema";
import type { RetryPolicy } from "./retry";

/** Which credential a provider needs; the CLI maps roles to environment variables. */
export type SecretRole = "anthropic-api-key" | "openai-api-key" | "bridge-token";

/**
 * Secrets are read when a client is built, never stored in settings. The plugin reads Obsidian's
 * secret storage by `name` (the name kept in settings); the CLI reads an environment variable by `role`.
 */
export interface SecretSource {
  get(role: SecretRole, name: string): string | null;
}

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface ProviderEnvironment {
  readonly settings: Settings;
  readonly secrets: SecretSource;
  /** Transport for non-streaming calls (Obsidian: requestUrl-backed; Node: global fetch). */
  readonly fetch?: FetchLike;
  /** Transport for streaming calls (desktop: Node http; elsewhere the same as `fetch`). */
  readonly streamingFetch?: FetchLike;
  readonly logger?: RunLogger;
  /** Absolute path of the vault on disk (CLI; desktop Obsidian), for the bridge; null when unknown. */
  readonly vaultPath?: string | null;
  /**
   * The code runs in a browser-like renderer (Obsidian, desktop or mobile): the Anthropic and
   * OpenAI SDKs refuse to start there unless built with `dangerouslyAllowBrowser: true`. The key
   * never leaves the user's machine except to the provider, so the SDKs' warning does not apply.
   */
  readonly browserLike?: boolean;
  /** Overrides of the retry policy (tests keep delays tiny; nothing else needs to). */
  readonly retry?: Partial<RetryPolicy>;
}
