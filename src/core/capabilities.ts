/**
 * What a provider declares it can do. Declared by the adapter that knows, never inferred by the
 * caller, and conservative by default: a provider that declares nothing is remote and incapable.
 */
export type ProviderMode = "local" | "api" | "cli" | "offline";
export type StructuredOutput = "none" | "json_schema" | "tool_call" | "grammar";

export interface ProviderCapabilities {
  /** Display name of the backend ("ollama", "anthropic", …); never used for routing. */
  readonly name: string;
  /**
   * Execution model, for display and reports — and for lint's cost limit: `local` runs the model on
   * this machine itself (so with no price it is free), while an `api` server on loopback may be a
   * proxy to a paid model (with no price it is counted free, and the estimate says so).
   */
  readonly mode: ProviderMode;
  /** The model the provider will call, or null when there is none (offline). */
  readonly model: string | null;
  /** Does calling this provider keep vault content on this machine? A safety property. */
  readonly isLocal: boolean;
  /** Native tool calling. */
  readonly supportsTools: boolean;
  /** The provider runs its own agent loop; the orchestrator delegates the whole ingest. */
  readonly supportsAgenticLoop: boolean;
  /** How replies are constrained to a schema. */
  readonly structuredOutput: StructuredOutput;
  /** chat() streams tokens as they arrive. */
  readonly streaming: boolean;
  /** Context window in tokens (0 when unknown). */
  readonly maxContext: number;
  /** The most output tokens one reply may have (0 when unknown); bounds raising the output limit. */
  readonly maxOutputTokens: number;
  /** The provider can produce embeddings (for vector retrieval). */
  readonly supportsEmbeddings: boolean;
}

const CONSERVATIVE: ProviderCapabilities = {
  name: "unnamed",
  mode: "api",
  model: null,
  isLocal: false,
  supportsTools: false,
  supportsAgenticLoop: false,
  structuredOutput: "none",
  streaming: false,
  maxContext: 0,
  maxOutputTokens: 0,
  supportsEmbeddings: false,
};

/** Builds a frozen descriptor; any field left out takes its conservative default. */
export function defineCapabilities(declared: Partial<ProviderCapabilities>): ProviderCapabilities {
  return Object.freeze({ ...CONSERVATIVE, ...declared });
}
